import sys

sys.setrecursionlimit(300000)


def height(adj, u, parent):
    h = 0
    for v in adj[u]:
        if v != parent:
            h = max(h, 1 + height(adj, v, u))
    return h


def main():
    n = int(sys.stdin.readline())
    adj = [[] for _ in range(n + 1)]
    for line in sys.stdin.readlines():
        if line.strip():
            u, v = map(int, line.split())
            adj[u].append(v)
            adj[v].append(u)
    print(height(adj, 1, 0))


if __name__ == "__main__":
    main()
