#include <bits/stdc++.h>
using namespace std;

int main() {
    vector<string> lines;
    string s;
    while (getline(cin, s)) {
        if (!s.empty() && s.back() == '\r') s.pop_back();
        lines.push_back(move(s));
    }
    reverse(lines.begin(), lines.end());
    ostringstream out;
    for (const string &l : lines) out << l << '\n';
    cout << out.str();
}
