class Countdown:
    def __init__(self, start):
        self.start = start

    def __iter__(self):
        n = self.start
        while n > 0:
            yield n
            n -= 1

    def __len__(self):
        return self.start

    def __getitem__(self, i):
        if not 0 <= i < self.start:
            raise IndexError(i)
        return self.start - i
