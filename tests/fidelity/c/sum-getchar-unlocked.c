#include <stdio.h>

static inline long long read_int(void) {
    int c = getchar_unlocked();
    while (c == ' ' || c == '\n' || c == '\r' || c == '\t') c = getchar_unlocked();
    int neg = 0;
    if (c == '-') {
        neg = 1;
        c = getchar_unlocked();
    }
    long long x = 0;
    while (c >= '0' && c <= '9') {
        x = x * 10 + (c - '0');
        c = getchar_unlocked();
    }
    return neg ? -x : x;
}

int main(void) {
    long long n = read_int(), s = 0;
    while (n--) s += read_int();
    printf("%lld\n", s);
    return 0;
}
