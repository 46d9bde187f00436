import os
import sys
from collections import defaultdict

if os.environ.get("LOCAL"):
    sys.stdin = open("input.txt")

freq = defaultdict(int)
for token in sys.stdin.read().split():
    freq[token.lower()] += 1
order = sorted(freq, key=lambda w: (-freq[w], w))
for w in order:
    print(f"{w} {freq[w]}")
