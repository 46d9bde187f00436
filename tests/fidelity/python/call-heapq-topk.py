import heapq
from collections import Counter
from typing import List


def top_k_frequent(nums: List[int], k: int) -> List[int]:
    counts = Counter(nums)
    return [num for num, _ in heapq.nsmallest(k, counts.items(), key=lambda item: (-item[1], item[0]))]
