n = int(input())
width = len(str(n * n))
for i in range(1, n + 1):
    print(" ".join(str(i * j).rjust(width) for j in range(1, n + 1)))
