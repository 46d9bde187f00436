import pickle
from collections import Counter


class Inventory:
    def __init__(self):
        self.items = Counter()

    def add(self, name, qty=1):
        self.items[name] += qty

    def remove(self, name, qty=1):
        if self.items[name] < qty:
            raise KeyError(name)
        self.items[name] -= qty

    def count(self, name):
        return self.items[name]


def save(inventory, path):
    with open(path, "wb") as f:
        pickle.dump(inventory, f)


def load(path):
    with open(path, "rb") as f:
        return pickle.load(f)
