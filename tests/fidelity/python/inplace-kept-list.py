class EventLog:
    """Writes events into a list the caller owns."""

    def __init__(self, sink):
        self.sink = sink

    def log(self, event):
        self.sink.append(event)

    def clear(self):
        self.sink.clear()


class Accumulator:
    def __init__(self, totals):
        self.totals = totals  # a dict the caller reads

    def add(self, key, amount):
        self.totals[key] = self.totals.get(key, 0) + amount
