#include <stdio.h>

#define MAXN 100005

int head[MAXN], nxt[2 * MAXN], to[2 * MAXN], edges;

void add_edge(int u, int v) {
    to[edges] = v;
    nxt[edges] = head[u];
    head[u] = edges++;
}

int dfs(int u, int parent) {
    int best = 0;
    for (int e = head[u]; e != -1; e = nxt[e]) {
        int v = to[e];
        if (v == parent) continue;
        int h = dfs(v, u) + 1;
        if (h > best) best = h;
    }
    return best;
}

int main(void) {
    int n;
    scanf("%d", &n);
    for (int i = 1; i <= n; i++) head[i] = -1;
    for (int i = 0; i < n - 1; i++) {
        int u, v;
        scanf("%d %d", &u, &v);
        add_edge(u, v);
        add_edge(v, u);
    }
    printf("%d\n", dfs(1, 0));
    return 0;
}
