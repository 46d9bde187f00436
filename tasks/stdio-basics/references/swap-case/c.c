#include <ctype.h>
#include <stdio.h>

int main(void) {
    int ch;
    while ((ch = getchar()) != EOF && ch != '\n') {
        if (islower(ch)) ch = toupper(ch);
        else if (isupper(ch)) ch = tolower(ch);
        putchar(ch);
    }
    putchar('\n');
    return 0;
}
