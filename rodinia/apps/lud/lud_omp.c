/* lud, OpenMP: the same blocked algorithm; per diagonal block the block
 * itself (one thread), the perimeter blocks and the trailing blocks, each
 * shared among the threads, with the same arithmetic order as the CUDA
 * version. */
#include <omp.h>
#include "lud_common.h"

#define B LUD_BLOCK
#define AT(i, j) m[(size_t)(i) * n + (j)]

static void factor_diagonal(float *m, int n, int o) {
    for (int k = 0; k < B - 1; k++) {
        for (int t = k + 1; t < B; t++) AT(o + t, o + k) /= AT(o + k, o + k);
        for (int t = k + 1; t < B; t++)
            for (int j = k + 1; j < B; j++) AT(o + t, o + j) -= AT(o + t, o + k) * AT(o + k, o + j);
    }
}

int main(int argc, char **argv) {
    rd_usage(argc, argv, 2, "SIZE OUTPUT");
    int n = rd_arg_int(argv[1], "size");
    rd_require(n % B == 0, "the size must be a multiple of %d\n", B);
    float *m = lud_generate(n);

    double t0 = rd_now();
    int o;
    for (o = 0; o < n - B; o += B) {
        factor_diagonal(m, n, o);
        int rest = (n - o) / B - 1;
#pragma omp parallel for schedule(static)
        for (int b = 0; b < rest; b++) {
            int off = o + (b + 1) * B;
            for (int t = 0; t < B; t++)
                for (int i = 1; i < B; i++)
                    for (int j = 0; j < i; j++) AT(o + i, off + t) -= AT(o + i, o + j) * AT(o + j, off + t);
            for (int t = 0; t < B; t++)
                for (int j = 0; j < B; j++) {
                    for (int k = 0; k < j; k++) AT(off + t, o + j) -= AT(off + t, o + k) * AT(o + k, o + j);
                    AT(off + t, o + j) /= AT(o + j, o + j);
                }
        }
#pragma omp parallel for schedule(static) collapse(2)
        for (int by = 0; by < rest; by++)
            for (int bx = 0; bx < rest; bx++) {
                int r = o + (by + 1) * B, c = o + (bx + 1) * B;
                for (int ty = 0; ty < B; ty++)
                    for (int tx = 0; tx < B; tx++) {
                        float sum = 0.0f;
                        for (int k = 0; k < B; k++) sum += AT(r + ty, o + k) * AT(o + k, c + tx);
                        AT(r + ty, c + tx) -= sum;
                    }
            }
    }
    factor_diagonal(m, n, o);
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    lud_write(argv[2], n, m);
    free(m);
    return 0;
}
