#include <iostream>
#include <set>

int main() {
    int n;
    std::cin >> n;
    std::set<long long> values;
    for (int i = 0; i < n; i++) {
        long long x;
        std::cin >> x;
        values.insert(x);
    }
    if (values.size() < 2) std::cout << "NONE\n";
    else std::cout << *std::next(values.rbegin()) << "\n";
    return 0;
}
