#include <stdio.h>

int main(void) {
    int n;
    long long x;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++) {
        scanf("%lld", &x);
        printf(i ? ",%lld" : "%lld", x);
    }
    printf("\n");
    return 0;
}
