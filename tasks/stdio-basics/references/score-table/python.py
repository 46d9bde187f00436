import sys

lines = sys.stdin.read().split("\n")
n = int(lines[0])
rows = [line.split() for line in lines[1:1 + n]]
w = max(len(name) for name, _ in rows)
v = max(len(score) for _, score in rows)
for name, score in rows:
    print(f"{name:<{w}} | {score:>{v}}")
