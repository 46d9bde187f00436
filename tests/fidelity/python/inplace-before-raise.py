def pop_n(stack, n):
    """Pop n items off stack and return them; IndexError if it runs out (what was popped stays popped)."""
    out = []
    for _ in range(n):
        out.append(stack.pop())
    return out


def normalize_records(records):
    """Strip and lower-case each name in place; ValueError at the first record without a name."""
    for i, r in enumerate(records):
        if not r.get("name"):
            raise ValueError(f"record {i} has no name")
        r["name"] = r["name"].strip().lower()


def drain_into(src, dst, limit):
    while src:
        if len(dst) >= limit:
            raise OverflowError("destination full")
        dst.append(src.pop(0))
