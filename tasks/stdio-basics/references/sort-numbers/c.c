#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b) {
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    long long *xs = malloc(sizeof *xs * n);
    for (int i = 0; i < n; i++) scanf("%lld", &xs[i]);
    qsort(xs, n, sizeof *xs, cmp);
    for (int i = 0; i < n; i++) printf("%lld%c", xs[i], i + 1 < n ? ' ' : '\n');
    free(xs);
    return 0;
}
