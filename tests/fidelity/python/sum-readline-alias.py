import sys
input = sys.stdin.readline


def read_ints():
    return list(map(int, input().split()))


n = int(input())
total = 0
seen = 0
while seen < n:
    row = read_ints()
    total += sum(row)
    seen += len(row)
print(total)
