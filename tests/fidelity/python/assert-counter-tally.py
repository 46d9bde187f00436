from collections import Counter, defaultdict


def letter_counts(text):
    return Counter(c for c in text.lower() if c.isalpha())


def group_by_length(words):
    groups = defaultdict(list)
    for w in words:
        groups[len(w)].append(w)
    return groups
