def count_items(xs):
    return len(xs)


def kinds(xs):
    return ["int" if isinstance(x, int) else "str" for x in xs]


def apply_all(f, xs):
    return [f(x) for x in xs]
