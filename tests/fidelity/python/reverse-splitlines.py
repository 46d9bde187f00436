import sys

lines = sys.stdin.read().splitlines()
print("\n".join(reversed(lines)))
