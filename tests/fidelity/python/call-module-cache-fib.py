_memo = {0: 0, 1: 1}


def fib(n: int) -> int:
    if n in _memo:
        return _memo[n]
    for i in range(2, n + 1):
        if i not in _memo:
            _memo[i] = _memo[i - 1] + _memo[i - 2]
    return _memo[n]
