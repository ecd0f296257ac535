/* gaussian, OpenMP: the same elimination steps; per step the multipliers,
 * then the rows below the pivot, each shared among the threads. */
#include <omp.h>
#include "gaussian_input.h"

int main(int argc, char **argv) {
    int n;
    float *a, *b, *x;
    ga_setup(argc, argv, &n, &a, &b, &x);
    float *m = (float *)calloc((size_t)n * n, sizeof(float));

    double t0 = rd_now();
    for (int t = 0; t < n - 1; t++) {
        float pivot = a[(size_t)n * t + t];
#pragma omp parallel for schedule(static)
        for (int row = t + 1; row < n; row++) m[(size_t)n * row + t] = a[(size_t)n * row + t] / pivot;
#pragma omp parallel for schedule(static)
        for (int row = t + 1; row < n; row++) {
            float mult = m[(size_t)n * row + t];
            for (int col = t; col < n; col++) a[(size_t)n * row + col] -= mult * a[(size_t)n * t + col];
            b[row] -= mult * b[t];
        }
    }
    ga_back_substitute(n, a, b, x);
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    ga_write(argv[2], n, x);
    RD_FREE(a, b, x, m);
    return 0;
}
