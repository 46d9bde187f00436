#include <stdio.h>

static char words[1000][101];

int main(void) {
    int n = 0;
    while (n < 1000 && scanf("%100s", words[n]) == 1) n++;
    for (int i = n - 1; i >= 0; i--) printf("%s%s", words[i], i ? " " : "");
    printf("\n");
    return 0;
}
