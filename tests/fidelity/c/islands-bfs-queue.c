#include <stdio.h>
#include <stdlib.h>

int main(void) {
    int R, C;
    if (scanf("%d %d", &R, &C) != 2) return 1;
    char *grid = malloc((size_t)R * (C + 1) + 1);
    char *row = malloc(C + 2);
    for (int r = 0; r < R; r++) {
        scanf("%s", row);
        for (int c = 0; c < C; c++) grid[r * C + c] = row[c];
    }
    int *queue = malloc(sizeof(int) * R * C);
    int islands = 0;
    const int dr[4] = {1, -1, 0, 0}, dc[4] = {0, 0, 1, -1};
    for (int start = 0; start < R * C; start++) {
        if (grid[start] != '#') continue;
        islands++;
        int head = 0, tail = 0;
        queue[tail++] = start;
        grid[start] = '.';
        while (head < tail) {
            int cell = queue[head++], r = cell / C, c = cell % C;
            for (int k = 0; k < 4; k++) {
                int nr = r + dr[k], nc = c + dc[k];
                if (nr < 0 || nr >= R || nc < 0 || nc >= C || grid[nr * C + nc] != '#') continue;
                grid[nr * C + nc] = '.';
                queue[tail++] = nr * C + nc;
            }
        }
    }
    printf("%d\n", islands);
    return 0;
}
