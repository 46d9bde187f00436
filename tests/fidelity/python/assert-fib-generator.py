def fib():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b


def fib_list(n):
    gen = fib()
    return [next(gen) for _ in range(n)]
