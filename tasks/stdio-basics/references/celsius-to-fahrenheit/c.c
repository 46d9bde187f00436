#include <stdio.h>

int main(void) {
    int n;
    double c;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++) {
        scanf("%lf", &c);
        printf("%.9f\n", c * 9.0 / 5.0 + 32.0);
    }
    return 0;
}
