#include <cmath>
#include <iomanip>
#include <iostream>
#include <vector>

int main() {
    int n;
    std::cin >> n;
    std::vector<double> xs(n);
    double sum = 0, sq = 0;
    for (auto &x : xs) {
        std::cin >> x;
        sum += x;
    }
    double mean = sum / n;
    for (double x : xs) sq += (x - mean) * (x - mean);
    std::cout << std::fixed << std::setprecision(9) << mean << " " << std::sqrt(sq / n) << "\n";
    return 0;
}
