from enum import Enum, IntEnum


class Status(str, Enum):
    OK = "ok"
    BAD = "bad"


class Level(IntEnum):
    LOW = 1
    HIGH = 2


def status_of(code):
    return Status.OK if code < 400 else Status.BAD


def level_of(x):
    return Level.HIGH if x > 10 else Level.LOW
