#include <cstdio>
#include <vector>

int main() {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    std::vector<bool> sieve(n + 1, true);
    std::vector<int> primes;
    for (int i = 2; i <= n; ++i) {
        if (!sieve[i]) continue;
        primes.push_back(i);
        for (long long j = 1LL * i * i; j <= n; j += i) sieve[j] = false;
    }
    printf("%zu\n", primes.size());
    for (size_t i = 0; i < primes.size(); ++i) printf(i ? " %d" : "%d", primes[i]);
    printf("\n");
}
