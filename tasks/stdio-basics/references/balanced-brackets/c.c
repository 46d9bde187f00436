#include <stdio.h>

static char stack[100001];

int main(void) {
    int ch, top = 0, ok = 1;
    while ((ch = getchar()) != EOF && ch != '\n') {
        if (ch == '(' || ch == '[' || ch == '{') {
            stack[top++] = (char)ch;
        } else if (ch == ')' || ch == ']' || ch == '}') {
            char open = ch == ')' ? '(' : ch == ']' ? '[' : '{';
            if (top == 0 || stack[--top] != open) {
                ok = 0;
                break;
            }
        }
    }
    puts(ok && top == 0 ? "YES" : "NO");
    return 0;
}
