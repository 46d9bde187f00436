import sys


class DSU:
    def __init__(self, n):
        self.parent = list(range(n))
        self.size = [1] * n

    def find(self, x):
        root = x
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[x] != root:
            self.parent[x], x = root, self.parent[x]
        return root

    def union(self, a, b):
        a, b = self.find(a), self.find(b)
        if a == b:
            return False
        if self.size[a] < self.size[b]:
            a, b = b, a
        self.parent[b] = a
        self.size[a] += self.size[b]
        return True


def main():
    lines = sys.stdin.read().split()
    rows, cols = int(lines[0]), int(lines[1])
    grid = lines[2:2 + rows]
    dsu = DSU(rows * cols)
    land = 0
    for r in range(rows):
        for c in range(cols):
            if grid[r][c] != "#":
                continue
            land += 1
            if r and grid[r - 1][c] == "#" and dsu.union(r * cols + c, (r - 1) * cols + c):
                land -= 1
            if c and grid[r][c - 1] == "#" and dsu.union(r * cols + c, r * cols + c - 1):
                land -= 1
    print(land)


main()
