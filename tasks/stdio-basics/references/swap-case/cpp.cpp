#include <cctype>
#include <iostream>
#include <string>

int main() {
    std::string line;
    std::getline(std::cin, line);
    for (char &ch : line) {
        unsigned char u = static_cast<unsigned char>(ch);
        if (std::islower(u)) ch = static_cast<char>(std::toupper(u));
        else if (std::isupper(u)) ch = static_cast<char>(std::tolower(u));
    }
    std::cout << line << "\n";
    return 0;
}
