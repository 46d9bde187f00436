import math

a, b, c = map(int, input().split())
d = math.sqrt(b * b - 4 * a * c)
# the numerically stable form: no cancellation between -b and d
q = -0.5 * (b + math.copysign(d, b))  # never 0, since d > 0
x1, x2 = sorted((q / a, c / q))
print(f"{x1:.9f} {x2:.9f}")
