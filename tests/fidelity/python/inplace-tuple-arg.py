def add_item(pair):
    """pair is (cart, item): append item to cart."""
    cart, item = pair
    cart.append(item)
    return len(cart)


def swap_contents(lists):
    """lists is a tuple (a, b) of two lists; exchange their contents in place."""
    a, b = lists
    a[:], b[:] = b[:], a[:]


def record_all(log_and_items):
    log, items = log_and_items
    for it in items:
        log.setdefault(it[0], []).append(it)
