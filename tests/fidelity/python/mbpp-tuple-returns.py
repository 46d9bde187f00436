def min_max(nums):
    return min(nums), max(nums)


def div_mod_pairs(pairs):
    return [divmod(a, b) for a, b in pairs]


def swap_numbers(a, b):
    temp = a
    a = b
    b = temp
    return (a, b)


def zip_tuples(t1, t2):
    return tuple(zip(t1, t2))
