#include <iostream>
#include <string>

int main() {
    std::string s, stack;
    std::getline(std::cin, s);
    bool ok = true;
    for (char ch : s) {
        if (ch == '(' || ch == '[' || ch == '{') {
            stack.push_back(ch);
        } else if (ch == ')' || ch == ']' || ch == '}') {
            char open = ch == ')' ? '(' : ch == ']' ? '[' : '{';
            if (stack.empty() || stack.back() != open) {
                ok = false;
                break;
            }
            stack.pop_back();
        }
    }
    std::cout << (ok && stack.empty() ? "YES" : "NO") << "\n";
    return 0;
}
