#include <stdio.h>

int main(void) {
    int n;
    long long x, best, current;
    if (scanf("%d", &n) != 1) return 1;
    scanf("%lld", &x);
    best = current = x;
    for (int i = 1; i < n; i++) {
        scanf("%lld", &x);
        current = current + x > x ? current + x : x;
        if (current > best) best = current;
    }
    printf("%lld\n", best);
    return 0;
}
