#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    double *xs = malloc(sizeof *xs * n), sum = 0, sq = 0;
    for (int i = 0; i < n; i++) {
        scanf("%lf", &xs[i]);
        sum += xs[i];
    }
    double mean = sum / n;
    for (int i = 0; i < n; i++) sq += (xs[i] - mean) * (xs[i] - mean);
    printf("%.9f %.9f\n", mean, sqrt(sq / n));
    free(xs);
    return 0;
}
