def drain(queue):
    """Yield items from the front of queue until it is empty."""
    while queue:
        yield queue.pop(0)


def follow(lines):
    i = 0
    while i < len(lines):
        yield lines[i]
        i += 1
