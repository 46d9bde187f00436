import sys

name = sys.stdin.readline().rstrip("\r\n")
print(f"Hello, {name}!")
