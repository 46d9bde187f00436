import sys


def quit_app(code=0):
    print("bye")
    sys.exit(code)


def interrupt_after(n):
    for i in range(n):
        pass
    raise KeyboardInterrupt("stopped by user")


def first(iterable):
    return next(iter(iterable))


def run_cli(argv):
    if "--help" in argv:
        raise SystemExit("usage: tool [--help] NAME")
    return f"hello {argv[0]}"
