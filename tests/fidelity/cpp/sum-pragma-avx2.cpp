#pragma GCC optimize("O3,unroll-loops")
#pragma GCC target("avx2,bmi,bmi2,popcnt,lzcnt")
#include <bits/stdc++.h>
using namespace std;

int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    long long n, x, total = 0;
    cin >> n;
    vector<long long> a;
    a.reserve(n);
    while (cin >> x) a.push_back(x);
    for (long long i = 0; i < n; i++) total += a[i];
    cout << total << '\n';
}
