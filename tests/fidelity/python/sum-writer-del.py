import sys


class FastWriter:
    """Collects the output and writes it in one go when the program ends."""

    def __init__(self):
        self.parts = []

    def write(self, text):
        self.parts.append(text)

    def __del__(self):
        sys.stdout.write("".join(self.parts))


out = FastWriter()
n, *a = map(int, sys.stdin.read().split())
out.write(f"{sum(a[:n])}\n")
