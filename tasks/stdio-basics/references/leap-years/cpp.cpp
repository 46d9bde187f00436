#include <iostream>

int main() {
    int t;
    std::cin >> t;
    while (t-- > 0) {
        long long y;
        std::cin >> y;
        std::cout << (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) ? "YES" : "NO") << "\n";
    }
    return 0;
}
