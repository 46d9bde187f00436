def sum_values(values):
    return sum(values)


def sorted_keys(keys):
    return sorted(keys)


def invert(items):
    return {v: k for k, v in items}


def has_overlap(keys_a, keys_b):
    return bool(keys_a & keys_b)
