import random


def sort_desc(nums):
    nums.sort(reverse=True)


def sort_by_length(words):
    """Sort words by length, then alphabetically, in place."""
    words.sort(key=lambda w: (len(w), w))
    return None


def shuffle_seeded(items, seed=0):
    random.Random(seed).shuffle(items)


def dedupe_keep_order(items):
    seen = set()
    items[:] = [x for x in items if not (x in seen or seen.add(x))]
    return len(items)
