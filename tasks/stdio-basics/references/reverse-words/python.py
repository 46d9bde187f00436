words = input().split()
print(" ".join(reversed(words)))
