#include <bits/stdc++.h>
using namespace std;

struct DSU {
    vector<int> p, sz;
    explicit DSU(int n) : p(n), sz(n, 1) { iota(p.begin(), p.end(), 0); }
    int find(int x) { return p[x] == x ? x : p[x] = find(p[x]); }
    bool unite(int a, int b) {
        a = find(a), b = find(b);
        if (a == b) return false;
        if (sz[a] < sz[b]) swap(a, b);
        p[b] = a;
        sz[a] += sz[b];
        return true;
    }
};

int main() {
    int R, C;
    cin >> R >> C;
    vector<string> grid(R);
    for (auto &row : grid) cin >> row;
    DSU dsu(R * C);
    int components = 0;
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++) {
            if (grid[r][c] != '#') continue;
            components++;
            if (r > 0 && grid[r - 1][c] == '#' && dsu.unite(r * C + c, (r - 1) * C + c)) components--;
            if (c > 0 && grid[r][c - 1] == '#' && dsu.unite(r * C + c, r * C + c - 1)) components--;
        }
    cout << components << endl;
}
