from concurrent.futures import ThreadPoolExecutor

_POOL = ThreadPoolExecutor(max_workers=4)


def _square(x):
    return x * x


SQUARES = list(_POOL.map(_square, range(1000)))  # a table made once, at import


def sum_of_squares(values):
    return sum(_POOL.map(_square, values))


def square_table(n):
    return SQUARES[:n]
