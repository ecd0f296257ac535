/* pathfinder, OpenMP: one row at a time, the columns of a row shared among
 * the threads, two rows swapped per step. */
#include <omp.h>
#include "pathfinder_input.h"

int main(int argc, char **argv) {
    rd_usage(argc, argv, 4, "COLS ROWS PYRAMID_HEIGHT OUTPUT");
    int cols = rd_arg_int(argv[1], "cols");
    int rows = rd_arg_int(argv[2], "rows");
    (void)rd_arg_int(argv[3], "pyramid height");
    int *wall = pf_generate(rows, cols);
    int *src = (int *)malloc(cols * sizeof(int));
    int *dst = (int *)malloc(cols * sizeof(int));

    double t0 = rd_now();
    for (int x = 0; x < cols; x++) src[x] = wall[x];
    for (int t = 1; t < rows; t++) {
        const int *row = wall + (size_t)t * cols;
#pragma omp parallel for schedule(static)
        for (int x = 0; x < cols; x++) {
            int best = src[x];
            if (x > 0 && src[x - 1] < best) best = src[x - 1];
            if (x < cols - 1 && src[x + 1] < best) best = src[x + 1];
            dst[x] = best + row[x];
        }
        int *tmp = src;
        src = dst;
        dst = tmp;
    }
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    pf_write(argv[4], cols, src);
    RD_FREE(wall, src, dst);
    return 0;
}
