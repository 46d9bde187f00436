import sys

n = int(sys.stdin.readline())
sieve = bytearray([1]) * (n + 1)
sieve[0] = 0
if n >= 1:
    sieve[1] = 0
i = 2
while i * i <= n:
    if sieve[i]:
        sieve[i * i::i] = bytes(len(range(i * i, n + 1, i)))
    i += 1
primes = [i for i in range(2, n + 1) if sieve[i]]
sys.stdout.write(f"{len(primes)}\n{' '.join(map(str, primes))}\n")
