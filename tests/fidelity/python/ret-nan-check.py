import math


def mean(xs):
    if not xs:
        return float("nan")
    return sum(xs) / len(xs)


def safe_log(x):
    return math.log(x) if x > 0 else -math.inf
