class Matrix:
    def __init__(self, rows):
        self.rows = [list(r) for r in rows]
        self.n, self.m = len(rows), len(rows[0])

    def __getitem__(self, ij):
        i, j = ij
        return self.rows[i][j]

    def __setitem__(self, ij, value):
        i, j = ij
        self.rows[i][j] = value

    def __matmul__(self, other):
        return Matrix([[sum(self[i, k] * other[k, j] for k in range(self.m)) for j in range(other.m)]
                       for i in range(self.n)])

    def __eq__(self, other):
        return self.rows == other.rows

    def __neg__(self):
        return Matrix([[-x for x in r] for r in self.rows])

    def tolist(self):
        return [r[:] for r in self.rows]

    @classmethod
    def identity(cls, n):
        return cls([[int(i == j) for j in range(n)] for i in range(n)])
