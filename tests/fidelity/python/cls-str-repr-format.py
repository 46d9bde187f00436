class Card:
    SUITS = {"S": "\u2660", "H": "\u2665"}

    def __init__(self, rank, suit):
        self.rank = rank
        self.suit = suit

    def __str__(self):
        return f"{self.rank}{self.SUITS[self.suit]}"

    def __repr__(self):
        return f"Card({self.rank!r}, {self.suit!r})"

    def __format__(self, spec):
        if spec == "long":
            return f"{self.rank} of {'spades' if self.suit == 'S' else 'hearts'}"
        return format(str(self), spec)
