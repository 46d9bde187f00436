#include <iostream>
#include <stack>
#include <string>
using namespace std;

bool balanced(const string &s) {
    stack<char> st;
    for (char ch : s) {
        if (ch == '(' || ch == '[' || ch == '{') {
            st.push(ch);
        } else if (ch == ')' || ch == ']' || ch == '}') {
            char want = ch == ')' ? '(' : ch == ']' ? '[' : '{';
            if (st.empty() || st.top() != want) return false;
            st.pop();
        }
    }
    return st.empty();
}

int main() {
    ios::sync_with_stdio(false);
    string line;
    while (getline(cin, line)) cout << (balanced(line) ? "YES" : "NO") << '\n';
}
