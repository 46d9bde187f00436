#include <iostream>
#include <string>
#include <vector>

int main() {
    std::vector<std::string> words;
    std::string w;
    while (std::cin >> w) words.push_back(w);
    for (std::size_t i = words.size(); i-- > 0;) std::cout << words[i] << (i ? " " : "");
    std::cout << "\n";
    return 0;
}
