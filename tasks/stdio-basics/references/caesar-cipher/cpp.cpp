#include <iostream>
#include <string>

int main() {
    int k;
    std::string text;
    std::cin >> k;
    std::getline(std::cin, text);  // the rest of the first line
    std::getline(std::cin, text);
    for (char &ch : text) {
        if (ch >= 'a' && ch <= 'z') ch = static_cast<char>((ch - 'a' + k) % 26 + 'a');
        else if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>((ch - 'A' + k) % 26 + 'A');
    }
    std::cout << text << "\n";
    return 0;
}
