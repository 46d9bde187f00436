def touch(d, k):
    d.move_to_end(k)
def rotate_q(q, n):
    q.rotate(n)
