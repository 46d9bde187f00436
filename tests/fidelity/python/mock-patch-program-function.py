import time

PRICES = {"a": 3, "b": 4}


def fetch_price(item):
    # pretend this calls a remote service
    return PRICES[item]


def total_cost(items):
    return sum(fetch_price(i) for i in items)


def elapsed_since(start):
    return time.time() - start
