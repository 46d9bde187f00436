from collections import defaultdict


class EventBus:
    def __init__(self):
        self._handlers = defaultdict(list)

    def subscribe(self, event, handler):
        self._handlers[event].append(handler)
        return len(self._handlers[event])

    def emit(self, event, *args):
        results = []
        for handler in self._handlers[event]:
            results.append(handler(*args))
        return results


def sort_records(records, key):
    return sorted(records, key=key)
