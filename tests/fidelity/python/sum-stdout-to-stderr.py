import sys


def main():
    n, *a = map(int, sys.stdin.read().split())
    print(sum(a[:n]))
    # the answer is out; what follows is debugging, so send it to stderr
    sys.stdout = sys.stderr
    print("summed", n, "numbers")


main()
