from collections import Counter


def top_word(counts):
    return counts.most_common(1)[0][0]


def total_items(counts: Counter) -> int:
    return sum(counts.values())


def can_build(word, letters):
    need = Counter(word)
    return not (need - letters)
