#include <ctype.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    int ch, count = 0;
    while ((ch = getchar()) != EOF && ch != '\n') {
        if (ch && strchr("aeiou", tolower(ch))) count++;
    }
    printf("%d\n", count);
    return 0;
}
