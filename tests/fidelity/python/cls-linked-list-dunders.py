class Node:
    def __init__(self, value, next=None):
        self.value = value
        self.next = next


class LinkedList:
    def __init__(self, values=()):
        self.head = None
        self._size = 0
        for v in reversed(list(values)):
            self.push_front(v)

    def push_front(self, value):
        self.head = Node(value, self.head)
        self._size += 1

    def __iter__(self):
        node = self.head
        while node:
            yield node.value
            node = node.next

    def __len__(self):
        return self._size

    def __getitem__(self, index):
        if index < 0:
            index += self._size
        if not 0 <= index < self._size:
            raise IndexError("list index out of range")
        for i, v in enumerate(self):
            if i == index:
                return v

    def __contains__(self, value):
        return any(v == value for v in self)

    def __reversed__(self):
        return iter(list(self)[::-1])

    def __eq__(self, other):
        return isinstance(other, LinkedList) and list(self) == list(other)

    def __repr__(self):
        return "LinkedList([" + ", ".join(map(repr, self)) + "])"
