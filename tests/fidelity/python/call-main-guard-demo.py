import sys


def solve(nums, k):
    """Length of the longest subarray with sum at most k (non-negative numbers)."""
    print("debug: solving", len(nums), "numbers", file=sys.stderr)
    best = left = total = 0
    for right, x in enumerate(nums):
        total += x
        while total > k:
            total -= nums[left]
            left += 1
        best = max(best, right - left + 1)
    print(f"best window: {best}")
    return best


if __name__ == "__main__":
    data = sys.stdin.read().split()
    n, k = int(data[0]), int(data[1])
    print(solve(list(map(int, data[2:2 + n])), k))
