/* gaussian: solving A x = b by Gaussian elimination without pivoting (the
 * generated matrix is diagonally dominant), then back substitution on the
 * host.  Input, back substitution and output, shared by both versions. */
#ifndef GAUSSIAN_INPUT_H
#define GAUSSIAN_INPUT_H
#include "rodinia_common.h"

static inline void ga_generate(int n, float *a, float *b) {
    rd_rng r = rd_seed(6);
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) a[(size_t)i * n + j] = rd_unit(&r) - 0.5f;
        a[(size_t)i * n + i] += (float)n * 0.5f + 1.0f;
        b[i] = rd_unit(&r) * 10.0f;
    }
}

/* x from the upper-triangular system left by the elimination. */
static inline void ga_back_substitute(int n, const float *a, const float *b, float *x) {
    for (int i = n - 1; i >= 0; i--) {
        float s = b[i];
        for (int j = i + 1; j < n; j++) s -= a[(size_t)i * n + j] * x[j];
        x[i] = s / a[(size_t)i * n + i];
    }
}

static inline void ga_write(const char *path, int n, const float *x) {
    FILE *f = rd_open_output(path);
    for (int i = 0; i < n; i++) fprintf(f, RD_FLOAT_FMT "\n", x[i]);
    fclose(f);
}

/* Parses the arguments and builds the system both versions solve, with
 * room for its solution. */
static inline void ga_setup(int argc, char **argv, int *n, float **a, float **b, float **x) {
    rd_usage(argc, argv, 2, "SIZE OUTPUT");
    *n = rd_arg_int(argv[1], "size");
    *a = (float *)malloc((size_t)*n * *n * sizeof(float));
    *b = (float *)malloc(*n * sizeof(float));
    *x = (float *)malloc(*n * sizeof(float));
    ga_generate(*n, *a, *b);
}
#endif
