import sys

sys.setrecursionlimit(100000)


class Node:
    def __init__(self, v, nxt=None):
        self.v, self.nxt = v, nxt


def chain(n):
    head = None
    for i in range(n):
        head = Node(i, head)
    return head
