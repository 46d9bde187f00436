import sys

data = sys.stdin.read().split()
xs = [int(x) for x in data[1:1 + int(data[0])]]
average = sum(xs) / len(xs)
print(f"{average:.9f}")
