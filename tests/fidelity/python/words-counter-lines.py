import sys
from collections import Counter

counts = Counter()
for line in sys.stdin:
    counts.update(word.lower() for word in line.split())
for word, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
    print(word, count)
