#include <iostream>
#include <string>

int main() {
    unsigned long long n;
    std::cin >> n;
    std::string bits;
    do {
        bits.insert(bits.begin(), static_cast<char>('0' + (n & 1)));
        n >>= 1;
    } while (n);
    std::cout << bits << "\n";
    return 0;
}
