import random


def roll_dice(n):
    return [random.randint(1, 6) for _ in range(n)]


def shuffled(items):
    items = list(items)
    random.shuffle(items)
    return items


def pick(options):
    return random.choice(options)
