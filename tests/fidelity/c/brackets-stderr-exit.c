#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char line[1 << 16];
static char stack[1 << 16];

int main(void) {
    int lineno = 0;
    while (fgets(line, sizeof line, stdin)) {
        size_t len = strcspn(line, "\r\n");
        line[len] = '\0';
        int top = 0, ok = 1;
        for (size_t i = 0; i < len && ok; i++) {
            char ch = line[i];
            if (ch == '(' || ch == '[' || ch == '{') {
                stack[top++] = ch;
            } else {
                char want = ch == ')' ? '(' : ch == ']' ? '[' : '{';
                if (top == 0 || stack[--top] != want) ok = 0;
            }
        }
        if (top != 0) ok = 0;
        if (lineno++ % 500 == 0) fprintf(stderr, "debug: line %d len %zu -> %d\n", lineno, len, ok);
        puts(ok ? "YES" : "NO");
    }
    fflush(stdout);
    exit(0);
}
