def format_name(first, last="", *, upper=False, sep=" "):
    name = sep.join(p for p in (first, last) if p)
    return name.upper() if upper else name


def clamp(x, lo=0, hi=100):
    return max(lo, min(hi, x))
