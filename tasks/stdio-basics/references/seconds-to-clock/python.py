s = int(input())
print(f"{s // 3600:02d}:{s // 60 % 60:02d}:{s % 60:02d}")
