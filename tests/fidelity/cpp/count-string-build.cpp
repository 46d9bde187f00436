#include <bits/stdc++.h>
using namespace std;

int main() {
    ios::sync_with_stdio(false);
    int n;
    cin >> n;
    string out;
    out.reserve(n * 8);
    for (int i = 1; i <= n; ++i) {
        out += to_string(i);
        out += '\n';
    }
    cout << out;
}
