import sys


def tokens():
    for line in sys.stdin:
        yield from line.split()


def main():
    it = tokens()
    n = int(next(it))
    total = 0
    for _ in range(n):
        total += int(next(it))
    sys.stdout.write(f"{total}\n")


main()
