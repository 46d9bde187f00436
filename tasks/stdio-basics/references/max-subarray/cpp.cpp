#include <algorithm>
#include <iostream>

int main() {
    int n;
    std::cin >> n;
    long long x, best, current;
    std::cin >> x;
    best = current = x;
    for (int i = 1; i < n; i++) {
        std::cin >> x;
        current = std::max(x, current + x);
        best = std::max(best, current);
    }
    std::cout << best << "\n";
    return 0;
}
