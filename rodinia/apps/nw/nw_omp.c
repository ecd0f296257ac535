/* nw, OpenMP: the same 16x16 tiles along anti-diagonals of tiles; the tiles
 * of one diagonal are shared among the threads, each tile filled row by row. */
#include <omp.h>
#include "nw_input.h"

#define TILE 16

int main(int argc, char **argv) {
    int n, penalty;
    nw_parse(argc, argv, TILE, &n, &penalty);
    int cols = n + 1;
    int *score, *ref;
    nw_generate(n, penalty, &score, &ref);
    int tiles = n / TILE;

    double t0 = rd_now();
    for (int d = 0; d < 2 * tiles - 1; d++) {
        int first = d < tiles ? 0 : d - tiles + 1;
        int last = d < tiles ? d : tiles - 1;
#pragma omp parallel for schedule(static)
        for (int tx = first; tx <= last; tx++) {
            int ty = d - tx;
            int r0 = 1 + TILE * ty, c0 = 1 + TILE * tx;
            for (int r = r0; r < r0 + TILE; r++)
                for (int c = c0; c < c0 + TILE; c++) {
                    size_t k = (size_t)r * cols + c;
                    score[k] = nw_max3(score[k - cols - 1] + ref[k], score[k - 1] - penalty,
                                       score[k - cols] - penalty);
                }
        }
    }
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    nw_write(argv[3], n, score);
    RD_FREE(score, ref);
    return 0;
}
