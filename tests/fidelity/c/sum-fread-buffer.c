#include <stdio.h>
#include <stdlib.h>

int main(void) {
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap + 1);
    size_t got;
    while ((got = fread(buf + len, 1, cap - len, stdin)) > 0) {
        len += got;
        if (len == cap) {
            cap *= 2;
            buf = realloc(buf, cap + 1);
        }
    }
    buf[len] = '\0';
    char *p = buf, *end;
    long n = strtol(p, &end, 10);
    p = end;
    long long sum = 0;
    for (long i = 0; i < n; i++) {
        sum += strtoll(p, &end, 10);
        p = end;
    }
    printf("%lld\n", sum);
    free(buf);
    return 0;
}
