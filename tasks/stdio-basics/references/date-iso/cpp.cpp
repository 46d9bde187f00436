#include <cstdio>
#include <iostream>

int main() {
    int d, m, y;
    char slash;
    std::cin >> d >> slash >> m >> slash >> y;
    std::printf("%04d-%02d-%02d\n", y, m, d);
    return 0;
}
