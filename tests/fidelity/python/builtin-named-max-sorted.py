def max(nums):
    """Return (largest value, index of its first occurrence)."""
    best_i = 0
    for i, v in enumerate(nums):
        if v > nums[best_i]:
            best_i = i
    return nums[best_i], best_i


def sorted(s):
    """Return the characters of s in order, as a string."""
    chars = list(s)
    chars.sort()
    return "".join(chars)
