n = int(input())
for k in list(range(1, n + 1)) + list(range(n - 1, 0, -1)):
    print(" " * (n - k) + "*" * (2 * k - 1))
