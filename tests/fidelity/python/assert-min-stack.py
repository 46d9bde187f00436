class MinStack:
    def __init__(self):
        self.items = []
        self.mins = []

    def push(self, value):
        self.items.append(value)
        self.mins.append(value if not self.mins else min(value, self.mins[-1]))

    def pop(self):
        self.mins.pop()
        return self.items.pop()

    def top(self):
        return self.items[-1]

    def get_min(self):
        return self.mins[-1]

    def __len__(self):
        return len(self.items)
