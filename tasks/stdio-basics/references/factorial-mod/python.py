MOD = 10**9 + 7
n = int(input())
result = 1
for i in range(2, n + 1):
    result = result * i % MOD
print(result)
