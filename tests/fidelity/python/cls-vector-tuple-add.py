class Vector(tuple):
    def __new__(cls, *xs):
        return super().__new__(cls, xs)

    def __add__(self, other):
        return Vector(*(a + b for a, b in zip(self, other)))

    def norm2(self):
        return sum(a * a for a in self)
