MOD = 10**9 + 7


def pow(a: int, b: int) -> int:
    """Return a ** b modulo 10**9 + 7, by fast exponentiation."""
    result = 1
    a %= MOD
    while b > 0:
        if b & 1:
            result = result * a % MOD
        a = a * a % MOD
        b >>= 1
    return result
