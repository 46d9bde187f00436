from collections import deque


def window_sums(dq, k):
    items = list(dq)
    return [sum(items[i:i + k]) for i in range(len(items) - k + 1)]


def rotate_copy(dq, n):
    d = deque(dq)
    d.rotate(n)
    return list(d)


def pop_both_ends(dq):
    return dq.popleft(), dq.pop()
