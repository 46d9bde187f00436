n = int(input())
lines = [str(i) for i in range(1, n + 1)]
print("\n".join(lines))
exit()
