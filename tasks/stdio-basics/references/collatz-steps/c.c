#include <stdio.h>

int main(void) {
    long long n;
    int steps = 0;
    if (scanf("%lld", &n) != 1) return 1;
    while (n != 1) {
        n = n % 2 == 0 ? n / 2 : 3 * n + 1;
        steps++;
    }
    printf("%d\n", steps);
    return 0;
}
