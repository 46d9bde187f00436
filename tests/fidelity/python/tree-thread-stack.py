import sys
import threading

sys.setrecursionlimit(1 << 25)
threading.stack_size(1 << 27)


def main():
    input = sys.stdin.readline
    n = int(input())
    adj = [[] for _ in range(n + 1)]
    for _ in range(n - 1):
        u, v = map(int, input().split())
        adj[u].append(v)
        adj[v].append(u)

    def dfs(u, parent):
        best = 0
        for v in adj[u]:
            if v != parent:
                best = max(best, dfs(v, u) + 1)
        return best

    print(dfs(1, 0))


threading.Thread(target=main).start()
