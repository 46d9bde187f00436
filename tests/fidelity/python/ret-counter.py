from collections import Counter


def char_count(s):
    return Counter(s)


def word_freq(text):
    return Counter(text.lower().split())


def merge_counts(a, b):
    return Counter(a) + Counter(b)
