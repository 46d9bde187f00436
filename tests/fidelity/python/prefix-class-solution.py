import sys
from typing import List, Tuple


class Solution:
    def rangeSums(self, nums: List[int], queries: List[Tuple[int, int]]) -> List[int]:
        prefix = [0]
        for x in nums:
            prefix.append(prefix[-1] + x)
        return [prefix[r] - prefix[l - 1] for l, r in queries]


def main() -> None:
    it = iter(sys.stdin.read().split())
    n, q = int(next(it)), int(next(it))
    nums = [int(next(it)) for _ in range(n)]
    queries = [(int(next(it)), int(next(it))) for _ in range(q)]
    ans = Solution().rangeSums(nums, queries)
    sys.stdout.write("\n".join(map(str, ans)) + "\n")


if __name__ == "__main__":
    main()
