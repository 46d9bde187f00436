#include <iostream>
#include <string>

int main() {
    std::string s;
    std::cin >> s;
    int sum = 0;
    for (char ch : s) sum += ch - '0';
    std::cout << sum << "\n";
    return 0;
}
