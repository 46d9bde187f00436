from fractions import Fraction


def harmonic(n):
    return sum(Fraction(1, k) for k in range(1, n + 1))


def egyptian(frac):
    out = []
    while frac > 0:
        d = -(-frac.denominator // frac.numerator)
        out.append(Fraction(1, d))
        frac -= Fraction(1, d)
    return out


def mean_exact(values):
    return Fraction(sum(values), len(values))
