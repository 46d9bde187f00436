#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <utility>

int main() {
    std::string line;
    std::getline(std::cin, line);  // header
    std::map<std::string, std::pair<long long, int>> totals;
    while (std::getline(std::cin, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        std::stringstream ss(line);
        std::string name, score;
        std::getline(ss, name, ',');
        std::getline(ss, score);
        auto &t = totals[name];
        t.first += std::stoll(score);
        t.second += 1;
    }
    std::cout << std::fixed << std::setprecision(2);
    for (const auto &[name, t] : totals) std::cout << name << ' ' << (double)t.first / t.second << '\n';
}
