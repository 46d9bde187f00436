#include <stdio.h>

static long long gcd(long long a, long long b) {
    while (b) {
        long long t = a % b;
        a = b;
        b = t;
    }
    return a;
}

int main(void) {
    long long a, b;
    if (scanf("%lld %lld", &a, &b) != 2) return 1;
    long long g = gcd(a, b);
    printf("%lld %lld\n", g, a / g * b);
    return 0;
}
