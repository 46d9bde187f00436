MADE = []


def produce(n):
    for i in range(n):
        MADE.append(i)
        yield i


def made():
    return len(MADE)


def countdown(n):
    while n > 0:
        print(f"at {n}")
        yield n
        n -= 1
