#include <stdio.h>

int main(void) {
    int n;
    long long x, lo, hi;
    if (scanf("%d", &n) != 1) return 1;
    scanf("%lld", &x);
    lo = hi = x;
    for (int i = 1; i < n; i++) {
        scanf("%lld", &x);
        if (x < lo) lo = x;
        if (x > hi) hi = x;
    }
    printf("%lld %lld\n", lo, hi);
    return 0;
}
