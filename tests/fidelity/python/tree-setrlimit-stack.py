import resource
import sys

resource.setrlimit(resource.RLIMIT_STACK, (2**29, -1))
sys.setrecursionlimit(10**6)


def main():
    data = sys.stdin.buffer.read().split()
    n = int(data[0])
    children = [[] for _ in range(n + 1)]
    for i in range(n - 1):
        u, v = int(data[1 + 2 * i]), int(data[2 + 2 * i])
        children[u].append(v)
        children[v].append(u)

    def go(u, p):
        best = 0
        for v in children[u]:
            if v != p:
                best = max(best, go(v, u) + 1)
        return best

    print(go(1, 0))


main()
