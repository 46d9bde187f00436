#include <iostream>
#include <string>

int main() {
    std::string w;
    long count = 0;
    while (std::cin >> w) count++;
    std::cout << count << "\n";
    return 0;
}
