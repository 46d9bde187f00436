#include <iostream>
#include <string>

int main() {
    std::string line;
    std::getline(std::cin, line);
    int count = 0;
    for (char ch : line) {
        if (std::string("aeiouAEIOU").find(ch) != std::string::npos) count++;
    }
    std::cout << count << "\n";
    return 0;
}
