#include <ctype.h>
#include <stdio.h>

int main(void) {
    int counts[26] = {0}, ch;
    while ((ch = getchar()) != EOF && ch != '\n') {
        if (isalpha(ch)) counts[tolower(ch) - 'a']++;
    }
    for (int i = 0; i < 26; i++) {
        if (counts[i]) printf("%c %d\n", 'a' + i, counts[i]);
    }
    return 0;
}
