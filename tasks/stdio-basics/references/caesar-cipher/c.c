#include <stdio.h>

int main(void) {
    int k, ch;
    if (scanf("%d", &k) != 1) return 1;
    while ((ch = getchar()) != EOF && ch != '\n') {
    }
    while ((ch = getchar()) != EOF && ch != '\n') {
        if (ch >= 'a' && ch <= 'z') ch = (ch - 'a' + k) % 26 + 'a';
        else if (ch >= 'A' && ch <= 'Z') ch = (ch - 'A' + k) % 26 + 'A';
        putchar(ch);
    }
    putchar('\n');
    return 0;
}
