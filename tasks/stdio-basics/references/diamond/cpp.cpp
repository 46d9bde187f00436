#include <iostream>
#include <string>

int main() {
    int n;
    std::cin >> n;
    for (int step = 1; step <= 2 * n - 1; step++) {
        int k = step <= n ? step : 2 * n - step;
        std::cout << std::string(n - k, ' ') << std::string(2 * k - 1, '*') << "\n";
    }
    return 0;
}
