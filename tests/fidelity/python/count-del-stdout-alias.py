import sys

out = sys.stdout


class Late:
    def __init__(self, n):
        self.n = n

    def __del__(self):
        print("\n".join(map(str, range(2, self.n + 1))))


n = int(sys.stdin.readline())
print(1)
late = Late(n) if n > 1 else None
