import sys

data = sys.stdin.read().split()
for y in map(int, data[1:1 + int(data[0])]):
    print("YES" if y % 4 == 0 and (y % 100 != 0 or y % 400 == 0) else "NO")
