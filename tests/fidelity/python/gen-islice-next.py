import itertools


def count_up(start=0):
    n = start
    while True:
        yield n
        n += 1


def squares():
    for i in itertools.count():
        yield i * i
