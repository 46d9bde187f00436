from enum import Enum, IntEnum


class Priority(IntEnum):
    LOW = 1
    MEDIUM = 2
    HIGH = 3


class Color(str, Enum):
    RED = "red"
    GREEN = "green"


def priority_of(name):
    return Priority[name.upper()]


def color_of(code):
    return {"r": Color.RED, "g": Color.GREEN}[code]
