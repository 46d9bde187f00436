import math

r = float(input())
area = math.pi * r * r
circumference = 2 * math.pi * r
print(f"{area:.9f} {circumference:.9f}")
