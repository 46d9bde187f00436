line = input()
print(line.swapcase())
