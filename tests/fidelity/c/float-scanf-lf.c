#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    int n;
    scanf("%d", &n);
    double *xs = malloc(sizeof(double) * n);
    double sum = 0;
    for (int i = 0; i < n; i++) {
        scanf("%lf", &xs[i]);
        sum += xs[i];
    }
    double mean = sum / n, sq = 0;
    for (int i = 0; i < n; i++) sq += (xs[i] - mean) * (xs[i] - mean);
    printf("%.6f %.6f\n", mean, sqrt(sq / n));
    free(xs);
    return 0;
}
