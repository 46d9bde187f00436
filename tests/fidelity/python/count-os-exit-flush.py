import os
import sys

n = int(sys.stdin.readline())
sys.stdout.write("".join(f"{i}\n" for i in range(1, n + 1)))
sys.stdout.flush()
os._exit(0)
