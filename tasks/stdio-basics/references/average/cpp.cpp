#include <cstdio>
#include <iostream>

int main() {
    int n;
    std::cin >> n;
    long long x, sum = 0;
    for (int i = 0; i < n; i++) {
        std::cin >> x;
        sum += x;
    }
    std::printf("%.9f\n", static_cast<double>(sum) / n);
    return 0;
}
