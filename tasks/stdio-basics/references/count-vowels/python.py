import sys

line = sys.stdin.readline()
print(sum(1 for ch in line if ch in "aeiouAEIOU"))
