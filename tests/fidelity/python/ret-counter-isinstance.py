from collections import Counter


def count_words(text):
    return Counter(text.split())


def tally(items):
    c = Counter()
    for it in items:
        c[it] += 1
    return c
