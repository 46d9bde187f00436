#include <stdio.h>

int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    int width = 0;
    for (int v = n * n; v > 0; v /= 10) width++;
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++) printf("%*d%c", width, i * j, j < n ? ' ' : '\n');
    return 0;
}
