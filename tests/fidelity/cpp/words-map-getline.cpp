#include <algorithm>
#include <cctype>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

int main() {
    std::map<std::string, int> freq;
    std::string line, word;
    while (std::getline(std::cin, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        std::istringstream in(line);
        while (in >> word) {
            std::transform(word.begin(), word.end(), word.begin(), [](unsigned char c) { return std::tolower(c); });
            ++freq[word];
        }
    }
    std::vector<std::pair<std::string, int>> items(freq.begin(), freq.end());
    std::stable_sort(items.begin(), items.end(), [](const auto &a, const auto &b) { return a.second > b.second; });
    for (const auto &[w, c] : items) std::cout << w << ' ' << c << '\n';
}
