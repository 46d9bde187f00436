#include <algorithm>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

int main() {
    int n;
    std::cin >> n;
    std::vector<std::string> names(n), scores(n);
    std::size_t w = 0, v = 0;
    for (int i = 0; i < n; i++) {
        std::cin >> names[i] >> scores[i];
        w = std::max(w, names[i].size());
        v = std::max(v, scores[i].size());
    }
    for (int i = 0; i < n; i++) {
        std::cout << std::left << std::setw(static_cast<int>(w)) << names[i] << " | " << std::right
                  << std::setw(static_cast<int>(v)) << scores[i] << "\n";
    }
    return 0;
}
