import sys

data = sys.stdin.buffer.read()
print(len(data), data.count(b"\n"), len(data.split()))
