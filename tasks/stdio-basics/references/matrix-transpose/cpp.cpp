#include <iostream>
#include <vector>

int main() {
    int r, c;
    std::cin >> r >> c;
    std::vector<std::vector<long long>> m(r, std::vector<long long>(c));
    for (auto &row : m)
        for (auto &x : row) std::cin >> x;
    for (int j = 0; j < c; j++)
        for (int i = 0; i < r; i++) std::cout << m[i][j] << (i + 1 < r ? ' ' : '\n');
    return 0;
}
