n, *a = map(int, open(0).read().split())
a.sort()
print(*a)
