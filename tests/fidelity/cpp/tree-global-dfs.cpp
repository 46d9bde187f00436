#include <bits/stdc++.h>
using namespace std;

const int N = 100005;
vector<int> g[N];
int depth_of[N];

void dfs(int u, int p) {
    for (int v : g[u]) {
        if (v == p) continue;
        depth_of[v] = depth_of[u] + 1;
        dfs(v, u);
    }
}

int main() {
    ios::sync_with_stdio(false);
    cin.tie(nullptr);
    int n;
    cin >> n;
    for (int i = 0; i < n - 1; i++) {
        int u, v;
        cin >> u >> v;
        g[u].push_back(v);
        g[v].push_back(u);
    }
    dfs(1, 0);
    cout << *max_element(depth_of + 1, depth_of + n + 1) << "\n";
}
