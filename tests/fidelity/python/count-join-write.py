import sys

n = int(sys.stdin.readline())
sys.stdout.write("\n".join(map(str, range(1, n + 1))) + "\n")
