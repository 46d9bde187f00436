class Matrix:
    def __init__(self, rows):
        self.rows = [list(r) for r in rows]

    def get(self, i, j):
        return self.rows[i][j]

    def set(self, i, j, v):
        self.rows[i][j] = v

    def __eq__(self, other):
        return isinstance(other, Matrix) and self.rows == other.rows


class Stack:
    def __init__(self):
        self.items = []

    def push(self, x):
        self.items.append(x)

    def pop(self):
        return self.items.pop()

    def __len__(self):
        return len(self.items)
