#include <bits/stdc++.h>
using namespace std;

int main() {
    cin.tie(nullptr)->sync_with_stdio(false);
    int n;
    cin >> n;
    vector<int> v(n);
    for (int &x : v) cin >> x;
    sort(v.begin(), v.end());
    ostringstream os;
    for (int i = 0; i < n; ++i) {
        if (i) os << ' ';
        os << v[i];
    }
    os << '\n';
    cout << os.str();
}
