#include <cmath>
#include <iomanip>
#include <iostream>

int main() {
    const double pi = std::acos(-1.0);
    double r;
    std::cin >> r;
    std::cout << std::fixed << std::setprecision(9) << pi * r * r << " " << 2 * pi * r << "\n";
    return 0;
}
