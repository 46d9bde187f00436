#include <stdio.h>

#define BASE 1000000000u

unsigned digits[400];

int main(void) {
    int n;
    scanf("%d", &n);
    int len = 1;
    digits[0] = 1;
    for (int k = 2; k <= n; k++) {
        unsigned long long carry = 0;
        for (int i = 0; i < len; i++) {
            unsigned long long cur = (unsigned long long)digits[i] * k + carry;
            digits[i] = cur % BASE;
            carry = cur / BASE;
        }
        while (carry) {
            digits[len++] = carry % BASE;
            carry /= BASE;
        }
    }
    printf("%u", digits[len - 1]);
    for (int i = len - 2; i >= 0; i--) printf("%09u", digits[i]);
    printf("\n");
    return 0;
}
