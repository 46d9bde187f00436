#include <iomanip>
#include <iostream>
#include <string>

int main() {
    int n;
    std::cin >> n;
    int width = static_cast<int>(std::to_string(n * n).size());
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++) std::cout << std::setw(width) << i * j << (j < n ? ' ' : '\n');
    return 0;
}
