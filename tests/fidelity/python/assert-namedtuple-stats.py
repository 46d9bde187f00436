from enum import IntEnum
from typing import NamedTuple


class Stats(NamedTuple):
    low: int
    high: int
    mean: float


class Level(IntEnum):
    LOW = 1
    MEDIUM = 2
    HIGH = 3


def summarize(xs):
    return Stats(min(xs), max(xs), sum(xs) / len(xs))


def level_of(name):
    return Level[name.upper()]
