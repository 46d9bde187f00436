#include <stdio.h>

int main(void) {
    unsigned long long n;
    char buf[65];
    int len = 0;
    if (scanf("%llu", &n) != 1) return 1;
    do {
        buf[len++] = (char)('0' + (n & 1));
        n >>= 1;
    } while (n);
    while (len) putchar(buf[--len]);
    putchar('\n');
    return 0;
}
