class Registry:
    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
            cls._instance.items = {}
        return cls._instance


class Node:
    def __init__(self, value):
        self.value = value
        self.prev = self.next = None


class LinkedList:
    def __init__(self):
        self.head = self.tail = None

    def append(self, value):
        node = Node(value)
        if self.tail is None:
            self.head = self.tail = node
        else:
            node.prev, self.tail.next = self.tail, node
            self.tail = node
        return node
