class Node:
    def __init__(self, val, nxt=None):
        self.val, self.nxt = val, nxt

    @property
    def double(self):
        return 2 * self.val


def chain(values):
    head = None
    for v in reversed(values):
        head = Node(v, head)
    return head


def bump(node):
    while node:
        node.val += 1
        node = node.nxt


def relink(head):
    head.nxt = Node(100, head.nxt)


def visit(node, callback):
    callback(node)
    node.val += 10
