#include <stdio.h>

int main(void) {
    int t;
    long long y;
    if (scanf("%d", &t) != 1) return 1;
    while (t-- > 0 && scanf("%lld", &y) == 1) {
        puts(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) ? "YES" : "NO");
    }
    return 0;
}
