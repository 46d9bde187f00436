import math


class NotPositive(ValueError):
    pass


class TooLarge(ValueError):
    def __init__(self, value, limit):
        super().__init__(f"{value} is larger than {limit}")
        self.value = value
        self.limit = limit


def checked_sqrt(x):
    if x <= 0:
        raise NotPositive(f"{x} is not positive")
    if x > 10**6:
        raise TooLarge(x, 10**6)
    return math.sqrt(x)
