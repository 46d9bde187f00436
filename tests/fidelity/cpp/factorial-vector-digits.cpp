#include <bits/stdc++.h>
using namespace std;

int main() {
    int n;
    cin >> n;
    vector<int> d{1};  // little-endian decimal digits
    for (int k = 2; k <= n; ++k) {
        int carry = 0;
        for (size_t i = 0; i < d.size(); ++i) {
            int cur = d[i] * k + carry;
            d[i] = cur % 10;
            carry = cur / 10;
        }
        while (carry) {
            d.push_back(carry % 10);
            carry /= 10;
        }
    }
    string s;
    for (auto it = d.rbegin(); it != d.rend(); ++it) s += char('0' + *it);
    cout << s << "\n";
    return 0;
}
