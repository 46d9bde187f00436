import csv
import sys
from collections import defaultdict

reader = csv.DictReader(sys.stdin)
totals = defaultdict(lambda: [0, 0])
for row in reader:
    t = totals[row["name"].strip()]
    t[0] += int(row["score"])
    t[1] += 1
for name in sorted(totals):
    s, c = totals[name]
    print(f"{name} {s / c:.2f}")
