def averager():
    total = count = 0
    avg = None
    while True:
        x = yield avg
        total += x
        count += 1
        avg = total / count


def squares(n):
    for i in range(n):
        yield i * i
