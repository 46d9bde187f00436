#include <stdio.h>

int main(void) {
    int d, m, y;
    if (scanf("%d/%d/%d", &d, &m, &y) != 3) return 1;
    printf("%04d-%02d-%02d\n", y, m, d);
    return 0;
}
