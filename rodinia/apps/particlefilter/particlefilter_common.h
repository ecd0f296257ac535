/* particlefilter: tracks a bright disk moving through a synthesised noisy
 * video with a sequential-importance-resampling particle filter.  The
 * video, the disk's pixel offsets, the per-particle random numbers, and the
 * output, shared by both versions (the random generators are also compiled
 * as device functions by the CUDA version). */
#ifndef PARTICLEFILTER_COMMON_H
#define PARTICLEFILTER_COMMON_H
#include <math.h>
#include "rodinia_common.h"

#ifdef __CUDACC__
#define PF_HD __host__ __device__
#else
#define PF_HD
#endif

/* Threads per block of every kernel, and the width of the weight sums. */
#define PF_THREADS 512
#define PF_RADIUS 5

typedef struct {
    int iszx, iszy, nfr, np;
} pf_args;

static inline pf_args pf_parse(int argc, char **argv) {
    pf_args a;
    rd_int_args(argc, argv, "DIMX DIMY FRAMES PARTICLES OUTPUT", "dimX", &a.iszx, "dimY", &a.iszy,
                "frames", &a.nfr, "particles", &a.np, RD_END);
    rd_check(a.iszx >= 32 && a.iszy >= 32 && (long)a.iszx * a.iszy * a.nfr <= 400000000L,
             "frames must be at least 32x32 (and the video at most 4e8 pixels)\n");
    return a;
}

/* A per-particle linear congruential generator (glibc's constants, 32-bit
 * wrap-around): a uniform double in [0, 1). */
PF_HD static inline double pf_randu(int *seed, int index) {
    int num = (int)(1103515245u * (unsigned)seed[index] + 12345u);
    seed[index] = num % 2147483647;
    return fabs(seed[index] / 2147483647.0);
}

/* A standard normal number (Box-Muller). */
PF_HD static inline double pf_randn(int *seed, int index) {
    double pi = 3.14159265358979323846;
    double u = pf_randu(seed, index);
    double v = pf_randu(seed, index);
    double cosine = cos(2.0 * pi * v);
    double rt = -2.0 * log(u);
    return sqrt(rt) * cosine;
}

/* Rounds half up. */
PF_HD static inline int pf_round(double v) { return (int)floor(v + 0.5); }

/* The object's centre in frame k (it moves by +1 in x and -2 in y per
 * frame, stopping at the border). */
static inline void pf_centre(const pf_args *a, int k, int *x, int *y) {
    int cx = a->iszx / 2 + k, cy = a->iszy / 2 - 2 * k;
    *x = cx > a->iszx - PF_RADIUS - 1 ? a->iszx - PF_RADIUS - 1 : cx;
    *y = cy < PF_RADIUS ? PF_RADIUS : cy;
}

/* The video, I[x * dimY * frames + y * frames + k]: background 100, the disk
 * (radius 5) 228, plus uniform noise in [-5, 5]. */
static inline unsigned char *pf_video(const pf_args *a) {
    size_t n = (size_t)a->iszx * a->iszy * a->nfr;
    unsigned char *img = (unsigned char *)malloc(n);
    rd_rng r = rd_seed(29);
    for (int x = 0; x < a->iszx; x++)
        for (int y = 0; y < a->iszy; y++)
            for (int k = 0; k < a->nfr; k++) {
                int cx, cy;
                pf_centre(a, k, &cx, &cy);
                int dx = x - cx, dy = y - cy;
                int base = dx * dx + dy * dy < PF_RADIUS * PF_RADIUS ? 228 : 100;
                img[(size_t)x * a->iszy * a->nfr + (size_t)y * a->nfr + k] =
                    (unsigned char)(base + rd_below(&r, 11) - 5);
            }
    return img;
}

/* The offsets (dy, dx pairs) of the pixels of a disk of radius 5 (distance
 * from the centre below the radius); returns their number. */
static inline int pf_disk(int *objxy) {
    int n = 0, d = 2 * PF_RADIUS - 1, c = PF_RADIUS - 1;
    for (int x = 0; x < d; x++)
        for (int y = 0; y < d; y++)
            if ((x - c) * (x - c) + (y - c) * (y - c) < PF_RADIUS * PF_RADIUS) {
                if (objxy) {
                    objxy[2 * n] = y - c;
                    objxy[2 * n + 1] = x - c;
                }
                n++;
            }
    return n;
}

static inline int *pf_seeds(int np) {
    int *seed = (int *)malloc((size_t)np * sizeof(int));
    rd_rng r = rd_seed(37);
    for (int i = 0; i < np; i++) seed[i] = (int)rd_next(&r);
    return seed;
}

/* The estimate (weighted mean position) and its distance from the object's
 * last centre, then the first 1000 particles' positions and weights. */
static inline void pf_write(const char *path, const pf_args *a, const double *x, const double *y,
                            const double *w) {
    double xe = 0.0, ye = 0.0;
    for (int i = 0; i < a->np; i++) {
        xe += x[i] * w[i];
        ye += y[i] * w[i];
    }
    int cx, cy;
    pf_centre(a, a->nfr - 1, &cx, &cy);
    FILE *f = rd_open_output(path);
    fprintf(f, RD_FLOAT_FMT " " RD_FLOAT_FMT " " RD_FLOAT_FMT "\n", xe, ye,
            sqrt((xe - cx) * (xe - cx) + (ye - cy) * (ye - cy)));
    for (int i = 0; i < a->np && i < 1000; i++)
        fprintf(f, RD_FLOAT_FMT " " RD_FLOAT_FMT " " RD_FLOAT_FMT "\n", x[i], y[i], w[i]);
    fclose(f);
}
#endif
