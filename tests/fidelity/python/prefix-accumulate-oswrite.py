import os
import sys
from itertools import accumulate

data = sys.stdin.buffer.read().split()
n, q = int(data[0]), int(data[1])
prefix = [0, *accumulate(map(int, data[2:2 + n]))]
queries = data[2 + n:2 + n + 2 * q]
answers = []
for i in range(0, 2 * q, 2):
    l, r = int(queries[i]), int(queries[i + 1])
    answers.append(prefix[r] - prefix[l - 1])
os.write(1, ("\n".join(map(str, answers)) + "\n").encode())
