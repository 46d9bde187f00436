n = int(input())
sieve = bytearray([1]) * (n + 1)
sieve[0] = 0
if n >= 1:
    sieve[1] = 0
for i in range(2, int(n ** 0.5) + 1):
    if sieve[i]:
        sieve[i * i::i] = bytearray(len(range(i * i, n + 1, i)))
print(*(i for i in range(n + 1) if sieve[i]))
