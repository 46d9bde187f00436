class EmptyStackError(IndexError):
    """pop or peek on an empty stack."""


class Stack:
    def __init__(self, items=None):
        self._items = list(items or [])

    def push(self, item):
        self._items.append(item)
        return self

    def pop(self):
        if not self._items:
            raise EmptyStackError("pop from empty stack")
        return self._items.pop()

    def peek(self):
        if not self._items:
            raise EmptyStackError("peek at empty stack")
        return self._items[-1]

    def is_empty(self):
        return not self._items

    def size(self):
        return len(self._items)
