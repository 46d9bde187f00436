def extend_with(dst, src):
    dst.extend(src)


def merge_into(a, b):
    """Append to a the items of b not already in a; return how many were added."""
    added = 0
    for x in list(b):
        if x not in a:
            a.append(x)
            added += 1
    return added


def same_object(a, b):
    return a is b


def append_both(a, b, value):
    a.append(value)
    b.append(value)
