from functools import lru_cache


@lru_cache(maxsize=None)
def count_paths(rows: int, cols: int) -> int:
    """Number of paths from the top-left to the bottom-right cell moving only right or down."""
    if rows == 1 or cols == 1:
        return 1
    return count_paths(rows - 1, cols) + count_paths(rows, cols - 1)
