def unique_chars(s):
    return set(s)


def common_tags(*groups):
    if not groups:
        return frozenset()
    out = set(groups[0])
    for g in groups[1:]:
        out &= set(g)
    return frozenset(out)


def pairs_with_sum(nums, target):
    seen, pairs = set(), set()
    for x in nums:
        if target - x in seen:
            pairs.add((min(x, target - x), max(x, target - x)))
        seen.add(x)
    return pairs
