CALLS = {"n": 0}
_cache = {}


def slow_square(x):
    if x not in _cache:
        CALLS["n"] += 1
        _cache[x] = x * x
    return _cache[x]
