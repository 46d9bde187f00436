#include <iostream>
#include <string>

int main() {
    std::string name;
    std::getline(std::cin, name);
    if (!name.empty() && name.back() == '\r') name.pop_back();
    std::cout << "Hello, " << name << "!\n";
    return 0;
}
