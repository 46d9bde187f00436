#include <algorithm>
#include <iostream>
#include <string>

int main() {
    std::string a, b;
    std::cin >> a >> b;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    std::cout << (a == b ? "YES" : "NO") << "\n";
    return 0;
}
