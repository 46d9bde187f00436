#include <stdio.h>

int main(void) {
    int n;
    long long x, sum = 0;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++) {
        scanf("%lld", &x);
        sum += x;
        printf("%lld%c", sum, i + 1 < n ? ' ' : '\n');
    }
    return 0;
}
