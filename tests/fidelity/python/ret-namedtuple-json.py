from collections import namedtuple
from typing import NamedTuple


class Point(NamedTuple):
    x: int
    y: int


Stats = namedtuple("Stats", ["count", "mean"])


def make_point(x, y):
    return Point(x, y)


def stats(xs):
    return Stats(len(xs), sum(xs) / len(xs))
