#include <math.h>
#include <stdio.h>

int main(void) {
    long long a, b, c;
    if (scanf("%lld %lld %lld", &a, &b, &c) != 3) return 1;
    double d = sqrt((double)(b * b - 4 * a * c));
    double x1 = (-b - d) / (2.0 * a), x2 = (-b + d) / (2.0 * a);
    if (x1 > x2) {
        double t = x1;
        x1 = x2;
        x2 = t;
    }
    printf("%.9f %.9f\n", x1, x2);
    return 0;
}
