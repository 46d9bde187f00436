#include <iostream>

int main() {
    int n;
    std::cin >> n;
    long long x, sum = 0;
    for (int i = 0; i < n; i++) {
        std::cin >> x;
        sum += x;
        std::cout << sum << (i + 1 < n ? ' ' : '\n');
    }
    return 0;
}
