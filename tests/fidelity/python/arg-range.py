def evens(r):
    return [x for x in r if x % 2 == 0]


def range_info(r):
    return (r.start, r.stop, r.step, len(r))


def total(r):
    return sum(r)
