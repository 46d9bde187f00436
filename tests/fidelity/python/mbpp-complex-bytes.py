import base64
import cmath


def quadratic_roots(a, b, c):
    d = cmath.sqrt(b * b - 4 * a * c)
    return ((-b + d) / (2 * a), (-b - d) / (2 * a))


def b64(text):
    return base64.b64encode(text.encode())


def grid_index(rows):
    return {(i, j): v for i, row in enumerate(rows) for j, v in enumerate(row)}
