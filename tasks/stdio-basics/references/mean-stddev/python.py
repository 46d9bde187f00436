import math
import sys

data = sys.stdin.read().split()
xs = [int(x) for x in data[1:1 + int(data[0])]]
mean = sum(xs) / len(xs)
std = math.sqrt(sum((x - mean) ** 2 for x in xs) / len(xs))
print(f"{mean:.9f} {std:.9f}")
