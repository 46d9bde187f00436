#include <bits/stdc++.h>
using namespace std;

int main() {
    ios_base::sync_with_stdio(false);
    cin.tie(NULL);
    int n;
    cin >> n;
    vector<long long> a(n);
    for (int i = 0; i < n; i++) cin >> a[i];
    const int T = 4;
    vector<long long> part(T, 0);
    vector<thread> workers;
    for (int t = 0; t < T; t++) {
        workers.emplace_back([&, t] {
            for (int i = t; i < n; i += T) part[t] += a[i];
        });
    }
    for (auto &w : workers) w.join();
    cout << accumulate(part.begin(), part.end(), 0LL) << "\n";
}
