import statistics
import sys

data = sys.stdin.read().split()
n = int(data[0])
xs = [float(x) for x in data[1:n + 1]]
print(f"{statistics.fmean(xs):.6f} {statistics.pstdev(xs):.6f}")
