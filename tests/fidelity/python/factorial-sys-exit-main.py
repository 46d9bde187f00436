import sys


def main():
    n = int(sys.stdin.read().strip())
    result = 1
    for k in range(2, n + 1):
        result *= k
    sys.stdout.write(str(result) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
