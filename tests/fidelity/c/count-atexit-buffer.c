#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char out[1 << 16];
static int pos = 0;

static void flush_out(void) {
    int done = 0;
    while (done < pos) {
        ssize_t w = write(1, out + done, pos - done);
        if (w <= 0) break;
        done += (int)w;
    }
    pos = 0;
}

static void put_int(int x) {
    char tmp[12];
    int k = 0;
    if (pos + 12 > (int)sizeof out) flush_out();
    do {
        tmp[k++] = '0' + x % 10;
        x /= 10;
    } while (x);
    while (k) out[pos++] = tmp[--k];
    out[pos++] = '\n';
}

int main(void) {
    atexit(flush_out);
    int n;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 1; i <= n; i++) put_int(i);
    return 0;
}
