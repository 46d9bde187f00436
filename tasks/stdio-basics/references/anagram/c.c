#include <stdio.h>

int main(void) {
    static char a[1001], b[1001];
    int counts[26] = {0};
    if (scanf("%1000s %1000s", a, b) != 2) return 1;
    for (char *p = a; *p; p++) counts[*p - 'a']++;
    for (char *p = b; *p; p++) counts[*p - 'a']--;
    for (int i = 0; i < 26; i++) {
        if (counts[i]) {
            puts("NO");
            return 0;
        }
    }
    puts("YES");
    return 0;
}
