#include <iostream>

int main() {
    const long long MOD = 1000000007LL;
    int n;
    std::cin >> n;
    long long result = 1;
    for (long long i = 2; i <= n; i++) result = result * i % MOD;
    std::cout << result << "\n";
    return 0;
}
