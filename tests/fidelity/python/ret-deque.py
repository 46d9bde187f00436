from collections import deque


def last_k(items, k):
    d = deque(maxlen=k)
    for x in items:
        d.append(x)
    return d


def rotate_left(items, n):
    d = deque(items)
    d.rotate(-n)
    return d


def bfs_order(graph, start):
    seen, order, q = {start}, deque(), deque([start])
    while q:
        node = q.popleft()
        order.append(node)
        for nxt in graph.get(node, []):
            if nxt not in seen:
                seen.add(nxt)
                q.append(nxt)
    return order
