#include <iostream>
#include <string>

int main() {
    std::string s;
    std::cin >> s;
    std::cout << (std::string(s.rbegin(), s.rend()) == s ? "YES" : "NO") << "\n";
    return 0;
}
