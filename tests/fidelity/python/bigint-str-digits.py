import sys

sys.set_int_max_str_digits(0)


def factorial(n):
    result = 1
    for i in range(2, n + 1):
        result *= i
    return result


def fib(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a
