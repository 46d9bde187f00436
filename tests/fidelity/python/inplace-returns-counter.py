def dedupe(nums):
    k = 0
    for x in nums:
        if k == 0 or nums[k - 1] != x:
            nums[k] = x
            k += 1
    del nums[k:]
    return nums
def bump_all(d):
    for k in d:
        d[k] += 1
