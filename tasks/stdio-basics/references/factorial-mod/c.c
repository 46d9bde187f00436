#include <stdio.h>

int main(void) {
    const long long MOD = 1000000007LL;
    int n;
    if (scanf("%d", &n) != 1) return 1;
    long long result = 1;
    for (long long i = 2; i <= n; i++) result = result * i % MOD;
    printf("%lld\n", result);
    return 0;
}
