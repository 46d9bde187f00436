#include <stdio.h>

int main(void) {
    int n, have_second = 0;
    long long x, first, second = 0;
    if (scanf("%d", &n) != 1) return 1;
    scanf("%lld", &first);
    for (int i = 1; i < n; i++) {
        scanf("%lld", &x);
        if (x > first) {
            second = first;
            first = x;
            have_second = 1;
        } else if (x < first && (!have_second || x > second)) {
            second = x;
            have_second = 1;
        }
    }
    if (have_second) printf("%lld\n", second);
    else puts("NONE");
    return 0;
}
