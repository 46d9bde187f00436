#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>

int main() {
    long long a, b, c;
    std::cin >> a >> b >> c;
    double d = std::sqrt(static_cast<double>(b * b - 4 * a * c));
    double x1 = (-b - d) / (2.0 * a), x2 = (-b + d) / (2.0 * a);
    if (x1 > x2) std::swap(x1, x2);
    std::cout << std::fixed << std::setprecision(9) << x1 << " " << x2 << "\n";
    return 0;
}
