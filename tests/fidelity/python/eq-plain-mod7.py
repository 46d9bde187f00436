class Mod7:
    def __init__(self, value):
        self.value = value % 7

    def __eq__(self, other):
        if isinstance(other, Mod7):
            return self.value == other.value
        if isinstance(other, int):
            return self.value == other % 7
        return NotImplemented

    def __hash__(self):
        return hash(self.value)

    def __add__(self, other):
        return Mod7(self.value + (other.value if isinstance(other, Mod7) else other))

    __radd__ = __add__

    def __repr__(self):
        return f"Mod7({self.value})"


class Frac:
    def __init__(self, num, den=1):
        from math import gcd
        g = gcd(num, den)
        self.num, self.den = num // g, den // g

    def __eq__(self, other):
        if isinstance(other, (int, float)):
            return self.num == other * self.den
        return (self.num, self.den) == (other.num, other.den)
