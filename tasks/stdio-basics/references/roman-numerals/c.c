#include <stdio.h>

int main(void) {
    static const int values[] = {1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1};
    static const char *symbols[] = {"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"};
    int n;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < 13; i++) {
        while (n >= values[i]) {
            fputs(symbols[i], stdout);
            n -= values[i];
        }
    }
    putchar('\n');
    return 0;
}
