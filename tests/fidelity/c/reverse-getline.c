#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    char **lines = NULL;
    size_t count = 0, cap = 0;
    char *line = NULL;
    size_t size = 0;
    ssize_t len;
    while ((len = getline(&line, &size, stdin)) != -1) {
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = '\0';
        if (count == cap) {
            cap = cap ? cap * 2 : 64;
            lines = realloc(lines, cap * sizeof *lines);
        }
        lines[count++] = strdup(line);
    }
    free(line);
    for (size_t i = count; i-- > 0;) {
        puts(lines[i]);
        free(lines[i]);
    }
    free(lines);
    return 0;
}
