#include <stdio.h>
#include <string.h>

int main(void) {
    static char s[1001];
    if (scanf("%1000s", s) != 1) return 1;
    size_t n = strlen(s);
    for (size_t i = 0; i < n / 2; i++) {
        if (s[i] != s[n - 1 - i]) {
            puts("NO");
            return 0;
        }
    }
    puts("YES");
    return 0;
}
