def squares(n):
    for i in range(n):
        yield i * i


def fib():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b


def evens(n):
    return (i for i in range(0, n, 2))
