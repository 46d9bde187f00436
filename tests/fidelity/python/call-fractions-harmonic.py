from fractions import Fraction


def harmonic(n: int) -> str:
    return str(sum(Fraction(1, k) for k in range(1, n + 1)))
