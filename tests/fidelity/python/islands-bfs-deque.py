import sys
from collections import deque

input = sys.stdin.readline
R, C = map(int, input().split())
grid = [input().strip() for _ in range(R)]
seen = [[False] * C for _ in range(R)]
islands = 0
for r in range(R):
    for c in range(C):
        if grid[r][c] == "#" and not seen[r][c]:
            islands += 1
            seen[r][c] = True
            q = deque([(r, c)])
            while q:
                y, x = q.popleft()
                for dy, dx in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    ny, nx = y + dy, x + dx
                    if 0 <= ny < R and 0 <= nx < C and not seen[ny][nx] and grid[ny][nx] == "#":
                        seen[ny][nx] = True
                        q.append((ny, nx))
print(islands)
