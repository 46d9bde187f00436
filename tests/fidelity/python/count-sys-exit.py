import sys

n = int(sys.stdin.read())
for i in range(1, n + 1):
    print(i)
sys.exit(0)
