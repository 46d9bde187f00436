def total(numbers):
    s = 0
    for n in numbers:
        s += n
    return s


def take_while_positive(it):
    out = []
    for x in it:
        if x <= 0:
            break
        out.append(x)
    return out


def chunked(iterable, size):
    chunk = []
    for x in iterable:
        chunk.append(x)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk
