#include <algorithm>
#include <iostream>
#include <vector>

int main() {
    int n;
    std::cin >> n;
    std::vector<long long> xs(n);
    for (auto &x : xs) std::cin >> x;
    auto [lo, hi] = std::minmax_element(xs.begin(), xs.end());
    std::cout << *lo << " " << *hi << "\n";
    return 0;
}
