#include <iomanip>
#include <iostream>

int main() {
    int n;
    std::cin >> n;
    std::cout << std::fixed << std::setprecision(9);
    for (int i = 0; i < n; i++) {
        double c;
        std::cin >> c;
        std::cout << c * 9.0 / 5.0 + 32.0 << "\n";
    }
    return 0;
}
