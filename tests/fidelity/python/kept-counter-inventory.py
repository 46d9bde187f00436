from collections import Counter
class Inventory:
    def __init__(self, stock):
        self.stock = stock
    def take(self, item):
        self.stock[item] -= 1
        return self.stock[item]
