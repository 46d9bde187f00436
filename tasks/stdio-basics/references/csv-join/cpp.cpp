#include <iostream>

int main() {
    int n;
    std::cin >> n;
    for (int i = 0; i < n; i++) {
        long long x;
        std::cin >> x;
        if (i) std::cout << ",";
        std::cout << x;
    }
    std::cout << "\n";
    return 0;
}
