#include <bits/stdc++.h>
using namespace std;
using Matrix = vector<vector<long long>>;

Matrix read_matrix(int n) {
    Matrix m(n, vector<long long>(n));
    for (auto &row : m)
        for (auto &x : row) cin >> x;
    return m;
}

int main() {
    int n;
    cin >> n;
    Matrix a = read_matrix(n), b = read_matrix(n), c(n, vector<long long>(n, 0));
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++)
            for (int j = 0; j < n; j++) c[i][j] += a[i][k] * b[k][j];
    for (auto &row : c) {
        for (int j = 0; j < n; j++) cout << row[j] << " \n"[j == n - 1];
    }
}
