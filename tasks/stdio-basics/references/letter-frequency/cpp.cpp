#include <cctype>
#include <iostream>
#include <map>
#include <string>

int main() {
    std::string line;
    std::getline(std::cin, line);
    std::map<char, int> counts;
    for (unsigned char ch : line) {
        if (std::isalpha(ch)) counts[static_cast<char>(std::tolower(ch))]++;
    }
    for (const auto &[letter, count] : counts) std::cout << letter << " " << count << "\n";
    return 0;
}
