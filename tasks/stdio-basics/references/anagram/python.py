import sys

a, b = sys.stdin.read().split()
print("YES" if sorted(a) == sorted(b) else "NO")
