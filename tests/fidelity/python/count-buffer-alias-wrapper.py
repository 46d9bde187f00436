import io
import sys

raw = sys.stdout.buffer
out = io.TextIOWrapper(raw, encoding="utf-8")

n = int(sys.stdin.readline())
for i in range(1, n + 1):
    out.write(f"{i}\n")
