#include <iostream>
#include <vector>

int main() {
    int n;
    std::cin >> n;
    std::vector<bool> composite(n + 1, false);
    bool first = true;
    for (long long i = 2; i <= n; i++) {
        if (composite[i]) continue;
        std::cout << (first ? "" : " ") << i;
        first = false;
        for (long long j = i * i; j <= n; j += i) composite[j] = true;
    }
    std::cout << "\n";
    return 0;
}
