/* dwt2d: the generated RGB image, the argument parsing, the 9/7 lifting
 * constants and the output, shared by both versions.  The transforms are
 * JPEG 2000's reversible 5/3 lifting (integer arithmetic, so both versions
 * agree exactly) and the irreversible 9/7 (float lifting, the same
 * operations in the same order in both), with whole-sample symmetric
 * extension at the borders. */
#ifndef DWT2D_COMMON_H
#define DWT2D_COMMON_H
#include "rodinia_common.h"

/* Mirrors a coordinate into [0, n) (one reflection: |i| < 2n - 2 suffices
 * for the halo, and anything further is clamped; such samples only feed
 * outputs that are never written). */
#ifdef __CUDACC__
__host__ __device__
#endif
static inline int dw_mirror(int i, int n) {
    if (i < 0) i = -i;
    if (i >= n) i = 2 * (n - 1) - i;
    if (i < 0) i = 0;
    return i;
}

/* An interleaved 8-bit RGB image: smooth gradients, a few discs and noise,
 * so every band carries some energy. */
static inline void dw_generate(int w, int h, unsigned char *rgb) {
    rd_rng r = rd_seed(53);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int dx = (x % 97) - 48, dy = (y % 83) - 41;
            int disc = dx * dx + dy * dy < 900 ? 60 : 0;
            int noise = (int)(rd_next(&r) & 31);
            unsigned char *p = rgb + 3 * ((size_t)y * w + x);
            p[0] = (unsigned char)((x * 255 / w + disc + noise) & 255);
            p[1] = (unsigned char)((y * 255 / h + noise) & 255);
            p[2] = (unsigned char)(((x + y) * 127 / (w + h) + disc + 2 * noise) & 255);
        }
}

/* The 9/7 lifting steps (predict, update, predict, update) and the band
 * scaling. */
#define DW_ALPHA (-1.586134342f)
#define DW_BETA (-0.05298011854f)
#define DW_GAMMA 0.8829110762f
#define DW_DELTA 0.4435068522f
#define DW_K 1.149604398f

/* Parses WIDTH HEIGHT LEVELS TRANSFORM OUTPUT (TRANSFORM: 53 or 97), or
 * exits: every level's band must be wider and higher than the halo. */
static inline void dw_args(int argc, char **argv, int *w, int *h, int *levels, int *t97) {
    int t;
    rd_int_args(argc, argv, "WIDTH HEIGHT LEVELS 53|97 OUTPUT", "width", w, "height", h, "levels",
                levels, "transform", &t, RD_END);
    rd_check(t == 53 || t == 97, "transform must be 53 or 97\n");
    *t97 = t == 97;
    int cw = *w, ch = *h, least = *t97 ? 5 : 3;
    for (int l = 0; l < *levels; l++) {
        if (cw < least || ch < least) {
            fprintf(stderr, "too many levels for a %dx%d image\n", *w, *h);
            exit(1);
        }
        cw = (cw + 1) / 2;
        ch = (ch + 1) / 2;
    }
}

/* Per component: the row sums and the column sums of the coefficients
 * (every band in its place, JPEG 2000's layout). */
static inline void dw_write(const char *path, int w, int h, int *const comps[3]) {
    FILE *f = rd_open_output(path);
    for (int c = 0; c < 3; c++) {
        const int *a = comps[c];
        for (int y = 0; y < h; y++) {
            long long s = 0;
            for (int x = 0; x < w; x++) s += a[(size_t)y * w + x];
            fprintf(f, "%lld\n", s);
        }
        for (int x = 0; x < w; x++) {
            long long s = 0;
            for (int y = 0; y < h; y++) s += a[(size_t)y * w + x];
            fprintf(f, "%lld\n", s);
        }
    }
    fclose(f);
}

/* The same for 9/7 coefficients (sums in double). */
static inline void dw_write_f(const char *path, int w, int h, float *const comps[3]) {
    FILE *f = rd_open_output(path);
    for (int c = 0; c < 3; c++) {
        const float *a = comps[c];
        for (int y = 0; y < h; y++) {
            double s = 0.0;
            for (int x = 0; x < w; x++) s += a[(size_t)y * w + x];
            fprintf(f, RD_FLOAT_FMT "\n", s);
        }
        for (int x = 0; x < w; x++) {
            double s = 0.0;
            for (int y = 0; y < h; y++) s += a[(size_t)y * w + x];
            fprintf(f, RD_FLOAT_FMT "\n", s);
        }
    }
    fclose(f);
}
#endif
