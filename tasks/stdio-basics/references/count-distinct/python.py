import sys

data = sys.stdin.read().split()
print(len(set(int(x) for x in data[1:1 + int(data[0])])))
