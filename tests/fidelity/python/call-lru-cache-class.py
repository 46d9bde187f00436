from collections import OrderedDict


class LRUCache:
    def __init__(self, capacity: int):
        self.capacity = capacity
        self.data = OrderedDict()

    def get(self, key: int) -> int:
        if key not in self.data:
            return -1
        self.data.move_to_end(key)
        return self.data[key]

    def put(self, key: int, value: int) -> None:
        if key in self.data:
            self.data.move_to_end(key)
        self.data[key] = value
        if len(self.data) > self.capacity:
            self.data.popitem(last=False)


def simulate(capacity, operations):
    cache = LRUCache(capacity)
    results = []
    for op in operations:
        if op[0] == "put":
            cache.put(op[1], op[2])
        else:
            results.append(cache.get(op[1]))
    return results
