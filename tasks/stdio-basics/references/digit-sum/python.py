print(sum(int(d) for d in input().strip()))
