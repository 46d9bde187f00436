import sys


def solve(tokens):
    n = int(tokens[0])
    return sum(int(t) for t in tokens[1:n + 1])


def main():
    tokens = []
    for line in sys.stdin:
        tokens.extend(line.split())
    print(solve(tokens))


if __name__ == "__main__":
    main()
