import sys

try:
    import numpy as np
except ImportError:
    np = None


def sieve(n):
    if np is not None:
        is_prime = np.ones(n + 1, dtype=bool)
        is_prime[:2] = False
        for i in range(2, int(n ** 0.5) + 1):
            if is_prime[i]:
                is_prime[i * i::i] = False
        return np.nonzero(is_prime)[0].tolist()
    flags = [True] * (n + 1)
    flags[0] = False
    if n >= 1:
        flags[1] = False
    for i in range(2, int(n ** 0.5) + 1):
        if flags[i]:
            flags[i * i::i] = [False] * len(range(i * i, n + 1, i))
    return [i for i, f in enumerate(flags) if f]


n = int(input())
ps = sieve(n)
print(len(ps))
print(*ps)
