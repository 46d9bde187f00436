#include <math.h>
#include <stdio.h>

int main(void) {
    double r;
    if (scanf("%lf", &r) != 1) return 1;
    printf("%.9f %.9f\n", M_PI * r * r, 2 * M_PI * r);
    return 0;
}
