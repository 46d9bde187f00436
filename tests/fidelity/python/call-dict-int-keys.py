from collections import Counter


def histogram(nums):
    return dict(sorted(Counter(nums).items()))


def split_minutes(total):
    return divmod(total, 60)
