from functools import total_ordering


@total_ordering
class Money:
    def __init__(self, cents, currency="USD"):
        self.cents = cents
        self.currency = currency

    def _check(self, other):
        if not isinstance(other, Money):
            return NotImplemented
        if other.currency != self.currency:
            raise ValueError("currency mismatch")
        return other

    def __add__(self, other):
        if other == 0:
            return self
        other = self._check(other)
        return Money(self.cents + other.cents, self.currency)

    def __radd__(self, other):
        return self.__add__(other)

    def __sub__(self, other):
        other = self._check(other)
        return Money(self.cents - other.cents, self.currency)

    def __mul__(self, k):
        return Money(self.cents * k, self.currency)

    __rmul__ = __mul__

    def __neg__(self):
        return Money(-self.cents, self.currency)

    def __eq__(self, other):
        if isinstance(other, Money):
            return (self.cents, self.currency) == (other.cents, other.currency)
        if other == 0:
            return self.cents == 0
        return NotImplemented

    def __lt__(self, other):
        other = self._check(other)
        return self.cents < other.cents

    def __hash__(self):
        return hash((self.cents, self.currency))

    def __bool__(self):
        return self.cents != 0

    def __str__(self):
        return f"${self.cents // 100}.{self.cents % 100:02d}"

    def __repr__(self):
        return f"Money({self.cents}, {self.currency!r})"
