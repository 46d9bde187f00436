import sys

data = sys.stdin.read().split()
for c in map(float, data[1:1 + int(data[0])]):
    f = c * 9 / 5 + 32
    print(f"{f:.9f}")
