from itertools import count, islice, takewhile


def primes():
    yield 2
    found = []
    for n in count(3, 2):
        if all(n % p for p in takewhile(lambda p: p * p <= n, found)):
            found.append(n)
            yield n


def first_primes(k):
    return list(islice(primes(), k))


def primes_below(n):
    return list(takewhile(lambda p: p < n, primes()))
