#include <stdio.h>

static long long m[100][100];

int main(void) {
    int r, c;
    if (scanf("%d %d", &r, &c) != 2) return 1;
    for (int i = 0; i < r; i++)
        for (int j = 0; j < c; j++) scanf("%lld", &m[i][j]);
    for (int j = 0; j < c; j++)
        for (int i = 0; i < r; i++) printf("%lld%c", m[i][j], i + 1 < r ? ' ' : '\n');
    return 0;
}
