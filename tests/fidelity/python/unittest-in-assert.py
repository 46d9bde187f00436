def add(a, b):
    return a + b


def divide(a, b):
    if b == 0:
        raise ValueError("division by zero")
    return a / b


def normalize(words):
    return sorted({w.strip().lower() for w in words if w.strip()})
