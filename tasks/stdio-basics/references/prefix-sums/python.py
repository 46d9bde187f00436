import sys
from itertools import accumulate

data = sys.stdin.read().split()
n = int(data[0])
print(*accumulate(int(x) for x in data[1:1 + n]))
