import sys


def greet(name):
    print(f"hello {name}")


def print_table(rows):
    for row in rows:
        print(*row, sep="\t")


def warn(msg):
    print(f"warning: {msg}", file=sys.stderr)
