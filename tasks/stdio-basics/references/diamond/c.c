#include <stdio.h>

static void row(int n, int k) {
    for (int j = 0; j < n - k; j++) putchar(' ');
    for (int j = 0; j < 2 * k - 1; j++) putchar('*');
    putchar('\n');
}

int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    for (int k = 1; k <= n; k++) row(n, k);
    for (int k = n - 1; k >= 1; k--) row(n, k);
    return 0;
}
