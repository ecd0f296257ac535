/* pathfinder: the generated wall and the output, shared by both versions. */
#ifndef PATHFINDER_INPUT_H
#define PATHFINDER_INPUT_H
#include "rodinia_common.h"

/* rows x cols costs in [0, 10), row-major. */
static inline int *pf_generate(int rows, int cols) {
    int *wall = (int *)malloc((size_t)rows * cols * sizeof(int));
    rd_rng r = rd_seed(2);
    for (size_t i = 0; i < (size_t)rows * cols; i++) wall[i] = rd_below(&r, 10);
    return wall;
}

static inline void pf_write(const char *path, int cols, const int *result) {
    FILE *f = rd_open_output(path);
    for (int i = 0; i < cols; i++) fprintf(f, "%d\n", result[i]);
    fclose(f);
}
#endif
