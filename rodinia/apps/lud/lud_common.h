/* lud: in-place LU decomposition without pivoting (L has a unit diagonal)
 * of a generated diagonally dominant matrix, in 16x16 blocks.  Input and
 * output, shared by both versions. */
#ifndef LUD_COMMON_H
#define LUD_COMMON_H
#include "rodinia_common.h"

#define LUD_BLOCK 16

static inline float *lud_generate(int n) {
    float *m = (float *)malloc((size_t)n * n * sizeof(float));
    rd_rng r = rd_seed(8);
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) m[(size_t)i * n + j] = rd_unit(&r);
        m[(size_t)i * n + i] += (float)n;
    }
    return m;
}

/* The diagonal of U, then every row's and every column's sum. */
static inline void lud_write(const char *path, int n, const float *m) {
    FILE *f = rd_open_output(path);
    for (int i = 0; i < n; i++) fprintf(f, RD_FLOAT_FMT "\n", m[(size_t)i * n + i]);
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int j = 0; j < n; j++) s += m[(size_t)i * n + j];
        fprintf(f, RD_FLOAT_FMT "\n", s);
    }
    for (int j = 0; j < n; j++) {
        double s = 0.0;
        for (int i = 0; i < n; i++) s += m[(size_t)i * n + j];
        fprintf(f, RD_FLOAT_FMT "\n", s);
    }
    fclose(f);
}
#endif
