#include <stdio.h>

int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    long long total = 0;
    for (int i = 0; i < n; i++) {
        int x;
        scanf("%d", &x);
        total += x;
    }
    printf("%lld\n", total);
    return 0;
}
