from typing import List, Tuple


def zip_pairs(a: List[int], b: List[str]) -> List[Tuple[int, str]]:
    return list(zip(a, b))


def split_even_odd(nums):
    evens = tuple(x for x in nums if x % 2 == 0)
    odds = tuple(x for x in nums if x % 2)
    return evens, odds


def grid_coords(n):
    return {f"{i},{j}": (i, j) for i in range(n) for j in range(n)}
