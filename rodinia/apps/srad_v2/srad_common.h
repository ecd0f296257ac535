/* srad_v2: speckle-reducing anisotropic diffusion of an image.  Input,
 * per-iteration statistics of the region of interest (computed on the host by
 * both versions), argument parsing and output, shared by both versions. */
#ifndef SRAD_COMMON_H
#define SRAD_COMMON_H
#include <math.h>
#include "rodinia_common.h"

typedef struct {
    int rows, cols, r1, r2, c1, c2, niter;
    float lambda;
} srad_args;

static inline srad_args srad_parse(int argc, char **argv) {
    srad_args a;
    rd_usage(argc, argv, 9, "ROWS COLS Y1 Y2 X1 X2 LAMBDA ITERATIONS OUTPUT");
    a.rows = rd_arg_int(argv[1], "rows");
    a.cols = rd_arg_int(argv[2], "cols");
    a.r1 = atoi(argv[3]);
    a.r2 = atoi(argv[4]);
    a.c1 = atoi(argv[5]);
    a.c2 = atoi(argv[6]);
    a.lambda = (float)atof(argv[7]);
    a.niter = rd_arg_int(argv[8], "iterations");
    if (a.rows % 16 || a.cols % 16 || a.r1 < 0 || a.r2 < a.r1 || a.r2 >= a.rows || a.c1 < 0 ||
        a.c2 < a.c1 || a.c2 >= a.cols) {
        fprintf(stderr, "rows and cols must be multiples of 16 and the region inside the image\n");
        exit(1);
    }
    return a;
}

/* J = exp(I) for a random image I in [0, 1). */
static inline float *srad_generate(int rows, int cols) {
    float *j = (float *)malloc((size_t)rows * cols * sizeof(float));
    rd_rng r = rd_seed(7);
    for (size_t i = 0; i < (size_t)rows * cols; i++) j[i] = expf(rd_unit(&r));
    return j;
}

/* q0^2: the squared coefficient of variation of the region of interest. */
static inline float srad_q0sqr(const srad_args *a, const float *j) {
    float sum = 0.0f, sum2 = 0.0f;
    for (int r = a->r1; r <= a->r2; r++)
        for (int c = a->c1; c <= a->c2; c++) {
            float t = j[(size_t)r * a->cols + c];
            sum += t;
            sum2 += t * t;
        }
    float size = (float)((a->r2 - a->r1 + 1) * (a->c2 - a->c1 + 1));
    float mean = sum / size;
    float var = sum2 / size - mean * mean;
    return var / (mean * mean);
}

static inline void srad_write(const char *path, const srad_args *a, const float *j) {
    FILE *f = rd_open_output(path);
    for (size_t i = 0; i < (size_t)a->rows * a->cols; i++) fprintf(f, RD_FLOAT_FMT "\n", j[i]);
    fclose(f);
}
#endif
