import random
import sys

random.seed(7)

n = int(sys.stdin.readline())
print(" ".join(str(random.randint(1, 100)) for _ in range(n)))
