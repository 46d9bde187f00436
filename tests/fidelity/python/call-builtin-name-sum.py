def sum(a, b):
    total = 0
    for i in range(1, min(a, b) + 1):
        if a % i == 0 and b % i == 0:
            total += i
    return total


def max(*nums):
    """The largest value and how many times it occurs."""
    best = nums[0]
    for x in nums:
        if x > best:
            best = x
    return [best, nums.count(best)]
