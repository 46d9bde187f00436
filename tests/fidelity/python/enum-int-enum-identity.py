from enum import Enum, IntEnum


class Color(Enum):
    RED = 1
    GREEN = 2


class Priority(IntEnum):
    LOW = 1
    HIGH = 3


def color_of(n):
    return Color(n)


def bump(p):
    return Priority.HIGH if p == Priority.LOW else p
