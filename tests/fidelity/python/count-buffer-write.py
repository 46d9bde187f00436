import sys

n = int(sys.stdin.buffer.readline())
sys.stdout.buffer.write(b"".join(b"%d\n" % i for i in range(1, n + 1)))
