#include <stdio.h>
#include <string.h>

static char names[100][21], scores[100][11];

int main(void) {
    int n, w = 0, v = 0;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++) {
        scanf("%20s %10s", names[i], scores[i]);
        if ((int)strlen(names[i]) > w) w = (int)strlen(names[i]);
        if ((int)strlen(scores[i]) > v) v = (int)strlen(scores[i]);
    }
    for (int i = 0; i < n; i++) printf("%-*s | %*s\n", w, names[i], v, scores[i]);
    return 0;
}
