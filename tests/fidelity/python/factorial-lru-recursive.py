import sys
from functools import lru_cache

sys.setrecursionlimit(10000)


@lru_cache(maxsize=None)
def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)


print(fact(int(sys.stdin.readline())))
