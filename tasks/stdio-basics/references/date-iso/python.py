d, m, y = map(int, input().strip().split("/"))
print(f"{y:04d}-{m:02d}-{d:02d}")
