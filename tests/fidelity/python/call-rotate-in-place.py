from typing import List


def rotate(nums: List[int], k: int) -> List[int]:
    """Rotate nums to the right by k steps, in place, and return it."""
    k %= len(nums)
    nums[:] = nums[len(nums) - k:] + nums[:len(nums) - k]
    return nums
