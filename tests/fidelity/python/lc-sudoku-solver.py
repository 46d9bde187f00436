from typing import List


class Solution:
    def solveSudoku(self, board: List[List[str]]) -> None:
        rows = [set() for _ in range(9)]
        cols = [set() for _ in range(9)]
        boxes = [set() for _ in range(9)]
        empty = []
        for i in range(9):
            for j in range(9):
                c = board[i][j]
                if c == ".":
                    empty.append((i, j))
                else:
                    rows[i].add(c)
                    cols[j].add(c)
                    boxes[i // 3 * 3 + j // 3].add(c)

        def backtrack(k):
            if k == len(empty):
                return True
            i, j = empty[k]
            b = i // 3 * 3 + j // 3
            for c in "123456789":
                if c in rows[i] or c in cols[j] or c in boxes[b]:
                    continue
                board[i][j] = c
                rows[i].add(c)
                cols[j].add(c)
                boxes[b].add(c)
                if backtrack(k + 1):
                    return True
                rows[i].discard(c)
                cols[j].discard(c)
                boxes[b].discard(c)
                board[i][j] = "."
            return False

        backtrack(0)
