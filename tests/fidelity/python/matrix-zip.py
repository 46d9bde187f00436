import sys

it = iter(sys.stdin.read().split())
n = int(next(it))
A = [[int(next(it)) for _ in range(n)] for _ in range(n)]
B = [[int(next(it)) for _ in range(n)] for _ in range(n)]
BT = list(zip(*B))
C = [[sum(a * b for a, b in zip(row, col)) for col in BT] for row in A]
print("\n".join(" ".join(map(str, row)) for row in C))
