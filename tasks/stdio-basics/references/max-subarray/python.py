import sys

data = sys.stdin.read().split()
xs = [int(x) for x in data[1:1 + int(data[0])]]
best = current = xs[0]
for x in xs[1:]:
    current = max(x, current + x)
    best = max(best, current)
print(best)
