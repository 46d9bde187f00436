import sys

data = sys.stdin.read().split()
print(",".join(data[1:1 + int(data[0])]))
