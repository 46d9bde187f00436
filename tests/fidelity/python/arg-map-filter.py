def sum_ints(values):
    total = 0
    for v in values:
        total += v
    return total


def longest(words):
    best = ""
    for w in words:
        if len(w) > len(best):
            best = w
    return best


def first_n(it, n):
    it = iter(it)
    return [next(it) for _ in range(n)]
