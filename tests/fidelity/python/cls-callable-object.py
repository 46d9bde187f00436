class Adder:
    def __init__(self, n):
        self.n = n

    def __call__(self, x):
        return x + self.n


class Polynomial:
    def __init__(self, *coeffs):
        self.coeffs = coeffs  # highest degree first

    def __call__(self, x):
        result = 0
        for c in self.coeffs:
            result = result * x + c
        return result

    def derivative(self):
        n = len(self.coeffs) - 1
        return Polynomial(*[c * (n - i) for i, c in enumerate(self.coeffs[:-1])])
