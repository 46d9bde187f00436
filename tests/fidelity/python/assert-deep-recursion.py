import sys

sys.setrecursionlimit(200000)


class Node:
    def __init__(self, value, next=None):
        self.value = value
        self.next = next


def build(n):
    head = None
    for v in range(n, 0, -1):
        head = Node(v, head)
    return head


def length(node):
    return 0 if node is None else 1 + length(node.next)


def total(node):
    return 0 if node is None else node.value + total(node.next)
