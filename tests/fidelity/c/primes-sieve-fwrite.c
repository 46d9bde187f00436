#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    char *composite = calloc(n + 1, 1);
    int count = 0;
    for (long long i = 2; i <= n; i++) {
        if (composite[i]) continue;
        count++;
        for (long long j = i * i; j <= n; j += i) composite[j] = 1;
    }
    char *out = malloc((size_t)count * 8 + 32);
    size_t len = 0;
    for (int i = 2; i <= n; i++) {
        if (!composite[i]) {
            if (len) out[len++] = ' ';
            len += sprintf(out + len, "%d", i);
        }
    }
    printf("%d\n", count);
    fwrite(out, 1, len, stdout);
    putchar('\n');
    free(out);
    free(composite);
    return 0;
}
