import random

random.seed(7)

SUITS = "SHDC"
RANKS = "A23456789TJQK"
DECK = [rank + suit for suit in SUITS for rank in RANKS]


def deal(n):
    """Deal n cards from a freshly shuffled deck (reproducible: the generator is seeded)."""
    return random.sample(DECK, n)
