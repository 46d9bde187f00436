#include <ctype.h>
#include <stdio.h>

int main(void) {
    int ch, in_word = 0;
    long count = 0;
    while ((ch = getchar()) != EOF) {
        if (isspace(ch)) {
            in_word = 0;
        } else if (!in_word) {
            in_word = 1;
            count++;
        }
    }
    printf("%ld\n", count);
    return 0;
}
