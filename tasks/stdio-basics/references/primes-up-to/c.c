#include <stdio.h>
#include <stdlib.h>

int main(void) {
    int n, first = 1;
    if (scanf("%d", &n) != 1) return 1;
    char *composite = calloc(n + 1, 1);
    for (long long i = 2; i <= n; i++) {
        if (composite[i]) continue;
        printf(first ? "%lld" : " %lld", i);
        first = 0;
        for (long long j = i * i; j <= n; j += i) composite[j] = 1;
    }
    printf("\n");
    free(composite);
    return 0;
}
