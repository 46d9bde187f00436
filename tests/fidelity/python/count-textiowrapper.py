import io
import sys

sys.stdout = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", newline="\n", write_through=False)

n = int(sys.stdin.readline())
for i in range(1, n + 1):
    sys.stdout.write(f"{i}\n")
sys.stdout.flush()
