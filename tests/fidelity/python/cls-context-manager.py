import time


class Timer:
    def __init__(self):
        self.elapsed = None
        self.running = False

    def __enter__(self):
        self.running = True
        self._start = time.perf_counter()
        return self

    def __exit__(self, exc_type, exc, tb):
        self.elapsed = time.perf_counter() - self._start
        self.running = False
        return False


class Suppress:
    def __init__(self, *exceptions):
        self.exceptions = exceptions
        self.caught = None

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None and issubclass(exc_type, self.exceptions):
            self.caught = exc
            return True
        return False


class Transaction:
    def __init__(self, store):
        self.store = store

    def __enter__(self):
        self.snapshot = dict(self.store.data)
        return self.store

    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None:
            self.store.data = self.snapshot
        return False


class Store:
    def __init__(self):
        self.data = {}

    def set(self, key, value):
        self.data[key] = value

    def transaction(self):
        return Transaction(self)
