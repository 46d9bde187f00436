import atexit
import sys

out = []


@atexit.register
def write_output():
    sys.stdout.write("".join(out))


n = int(sys.stdin.readline())
for i in range(1, n + 1):
    out.append(f"{i}\n")
