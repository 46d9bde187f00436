#include <iostream>
#include <string>
#include <utility>

int main() {
    const std::pair<int, const char *> table[] = {{1000, "M"}, {900, "CM"}, {500, "D"}, {400, "CD"},
                                                  {100, "C"},  {90, "XC"},  {50, "L"},  {40, "XL"},
                                                  {10, "X"},   {9, "IX"},   {5, "V"},   {4, "IV"},
                                                  {1, "I"}};
    int n;
    std::cin >> n;
    std::string out;
    for (const auto &[value, symbol] : table) {
        while (n >= value) {
            out += symbol;
            n -= value;
        }
    }
    std::cout << out << "\n";
    return 0;
}
