import sys

data = sys.stdin.read().split()
n = int(data[0])
values = sorted(set(int(x) for x in data[1:1 + n]))
print(values[-2] if len(values) >= 2 else "NONE")
