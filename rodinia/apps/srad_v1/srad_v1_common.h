/* srad_v1: speckle-reducing anisotropic diffusion of a synthesised
 * ultrasound-like image (column-major, Nr rows by Nc columns, values
 * 0..255).  The image, the neighbour index arrays, the block-sum order of
 * the statistics reduction, and the output, shared by both versions. */
#ifndef SRAD_V1_COMMON_H
#define SRAD_V1_COMMON_H
#include <math.h>
#include "rodinia_common.h"

/* Threads per block of every kernel, and the width of the reduction tree. */
#define SRAD_THREADS 512

typedef struct {
    int niter;
    float lambda;
    int nr, nc;
} srad1_args;

static inline srad1_args srad1_parse(int argc, char **argv) {
    rd_usage(argc, argv, 5, "ITERATIONS LAMBDA ROWS COLS OUTPUT");
    srad1_args a;
    a.niter = rd_arg_int(argv[1], "iterations");
    a.lambda = (float)atof(argv[2]);
    a.nr = rd_arg_int(argv[3], "rows");
    a.nc = rd_arg_int(argv[4], "cols");
    if (!(a.lambda > 0.0f) || a.nr < 2 || a.nc < 2) {
        fprintf(stderr, "lambda must be positive and the image at least 2x2\n");
        exit(1);
    }
    return a;
}

/* A few bright and dark regions (ellipses) under multiplicative speckle,
 * rounded to integers as in an 8-bit image; column-major. */
static inline float *srad1_image(int nr, int nc) {
    float *img = (float *)malloc((size_t)nr * nc * sizeof(float));
    rd_rng r = rd_seed(17);
    for (int j = 0; j < nc; j++)
        for (int i = 0; i < nr; i++) {
            int base = 90;
            int di = i - nr / 2, dj = j - nc / 3;
            if (4 * di * di + dj * dj < nr * nc / 12) base = 170;
            int ei = i - nr / 4, ej = j - 2 * nc / 3;
            if (ei * ei + 3 * ej * ej < nr * nc / 40) base = 40;
            int v = (int)((float)base * (0.4f + 1.2f * rd_unit(&r)));
            img[(size_t)j * nr + i] = (float)(v > 255 ? 255 : v);
        }
    return img;
}

/* Neighbour rows and columns, clamped at the border. */
static inline void srad1_neighbours(int nr, int nc, int *in, int *is, int *jw, int *je) {
    for (int i = 0; i < nr; i++) {
        in[i] = i == 0 ? 0 : i - 1;
        is[i] = i == nr - 1 ? nr - 1 : i + 1;
    }
    for (int j = 0; j < nc; j++) {
        jw[j] = j == 0 ? 0 : j - 1;
        je[j] = j == nc - 1 ? nc - 1 : j + 1;
    }
}

/* The sum of `count` (1..SRAD_THREADS) values v[k * stride] in the order of
 * one block of the CUDA reduction: a pairwise tree over the largest power of
 * two not above count, then the rest added one by one. */
static inline float srad1_block_sum(const float *v, long stride, int count) {
    float s[SRAD_THREADS];
    int df = 1;
    while (df * 2 <= count) df *= 2;
    for (int k = 0; k < df; k++) s[k] = v[k * stride];
    for (int i = 2; i <= df; i *= 2)
        for (int t = i - 1; t < df; t += i) s[t] += s[t - i / 2];
    float total = s[df - 1];
    for (int k = df; k < count; k++) total += v[k * stride];
    return total;
}

/* Every k-th pixel (so at most about 100000 values) and the image's sum. */
static inline void srad1_write(const char *path, long ne, const float *img) {
    FILE *f = rd_open_output(path);
    long step = ne / 100000 + 1;
    double sum = 0.0;
    for (long i = 0; i < ne; i++) {
        if (i % step == 0) fprintf(f, RD_FLOAT_FMT "\n", img[i]);
        sum += img[i];
    }
    fprintf(f, RD_FLOAT_FMT "\n", sum);
    fclose(f);
}
#endif
