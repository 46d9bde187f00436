def averager():
    total = 0.0
    count = 0
    average = None
    while True:
        value = yield average
        total += value
        count += 1
        average = total / count


def counter_with_reset():
    n = 0
    while True:
        cmd = yield n
        if cmd == "reset":
            n = 0
        else:
            n += 1


def tracked():
    try:
        yield 1
        yield 2
    finally:
        STATE["closed"] = True


STATE = {"closed": False}
