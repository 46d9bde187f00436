from math import gcd


class Frac:
    def __init__(self, n, d=1):
        g = gcd(n, d)
        self.n, self.d = n // g, d // g

    def __add__(self, o):
        o = o if isinstance(o, Frac) else Frac(o)
        return Frac(self.n * o.d + o.n * self.d, self.d * o.d)

    __radd__ = __add__

    def __eq__(self, o):
        if isinstance(o, int):
            o = Frac(o)
        return isinstance(o, Frac) and (self.n, self.d) == (o.n, o.d)

    def __hash__(self):
        return hash((self.n, self.d))

    def __repr__(self):
        return f"{self.n}/{self.d}"
