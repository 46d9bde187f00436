#include <bits/stdc++.h>
using namespace std;
typedef long long ll;
#define all(x) (x).begin(), (x).end()
#define rep(i, a, b) for (int i = (a); i < (b); ++i)

void solve() {
    int n, q;
    cin >> n >> q;
    vector<ll> pre(n + 1, 0);
    rep(i, 0, n) {
        ll x;
        cin >> x;
        pre[i + 1] = pre[i] + x;
    }
    while (q--) {
        int l, r;
        cin >> l >> r;
        cout << pre[r] - pre[l - 1] << '\n';
    }
}

int main() {
    ios::sync_with_stdio(0);
    cin.tie(0);
    int tc = 1;
    // cin >> tc;
    while (tc--) solve();
    return 0;
}
