/* heartwall: the synthesised ultrasound frames, the sample points on the
 * heart wall, the template statistics' reduction order, and the output,
 * shared by both versions. */
#ifndef HEARTWALL_COMMON_H
#define HEARTWALL_COMMON_H
#include <float.h>
#include <math.h>
#include "rodinia_common.h"

#define HW_ROWS 609      /* frame size of Rodinia's video */
#define HW_COLS 590
#define HW_ENDO 20       /* endocardium points */
#define HW_EPI 31        /* epicardium points */
#define HW_POINTS (HW_ENDO + HW_EPI)
#define HW_MAX_MOVE 10   /* largest displacement per frame */
#define HW_MAX_TSIZE 25  /* Rodinia's template half-size */
#define HW_MAX_TSIDE (2 * HW_MAX_TSIZE + 1)
#define HW_MAX_SSIDE (2 * (HW_MAX_TSIZE + HW_MAX_MOVE) + 1)
#define HW_CSIDE (2 * HW_MAX_MOVE + 1) /* candidate displacements per axis */
#define HW_THREADS 256
#define HW_ALPHA 0.87f   /* template update weight, as in Rodinia */
#define HW_CENTRE_R 300
#define HW_CENTRE_C 295

/* The inner and outer wall radii in frame f: the wall contracts and
 * relaxes by one pixel per frame, with a period of 16 frames. */
static inline int hw_inner(int f) {
    int k = f % 16;
    return 110 + (k < 8 ? k : 16 - k);
}
static inline int hw_outer(int f) { return hw_inner(f) + 45 - (f % 16 < 8 ? f % 16 : 16 - f % 16) / 2; }

static inline unsigned hw_hash(unsigned x) {
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

/* Frame f: a bright speckled ring (the wall) on a dark speckled
 * background; the speckle pattern is fixed, with a little noise per
 * frame.  Integer arithmetic only, so both versions see the same bytes. */
static inline void hw_frame(int f, unsigned char *px) {
    int ri = hw_inner(f), ro = hw_outer(f);
    for (int r = 0; r < HW_ROWS; r++)
        for (int c = 0; c < HW_COLS; c++) {
            int dr = r - HW_CENTRE_R, dc = c - HW_CENTRE_C;
            int d2 = dr * dr + dc * dc;
            unsigned h = hw_hash((unsigned)(r * HW_COLS + c));
            unsigned n = hw_hash((unsigned)((r * HW_COLS + c) ^ (f * 7919)));
            int base = d2 >= ri * ri && d2 <= ro * ro ? 150 : 40;
            int v = base + (int)(h % 60) + (int)(n % 16);
            px[(size_t)r * HW_COLS + c] = (unsigned char)(v > 255 ? 255 : v);
        }
}

/* The initial points: evenly spaced on the inner (endocardium) and outer
 * (epicardium) wall boundaries of frame 0. */
static inline void hw_points(int *rows, int *cols) {
    for (int k = 0; k < HW_POINTS; k++) {
        int endo = k < HW_ENDO;
        double a = 2.0 * 3.14159265358979 * (endo ? k : k - HW_ENDO) / (endo ? HW_ENDO : HW_EPI);
        double rad = endo ? hw_inner(0) : hw_outer(0);
        rows[k] = HW_CENTRE_R + (int)lrint(rad * sin(a));
        cols[k] = HW_CENTRE_C + (int)lrint(rad * cos(a));
    }
}

#ifdef __CUDACC__
__host__ __device__
#endif
static inline int hw_clamp(int v, int lo, int hi) {
    return v < lo ? lo : (v > hi ? hi : v);
}

/* Positions per frame and point, then each template's sum. */
static inline void hw_write(const char *path, int frames, const int *history,
                            const float *templates, int tside) {
    FILE *f = rd_open_output(path);
    for (int i = 0; i < frames * HW_POINTS; i++)
        fprintf(f, "%d %d\n", history[2 * i], history[2 * i + 1]);
    for (int p = 0; p < HW_POINTS; p++) {
        double s = 0.0;
        for (int i = 0; i < tside * tside; i++) s += templates[(size_t)p * HW_MAX_TSIDE * HW_MAX_TSIDE + i];
        fprintf(f, RD_FLOAT_FMT "\n", s);
    }
    fclose(f);
}

/* Parses FRAMES TEMPLATE_HALF_SIZE OUTPUT, or exits. */
static inline void hw_args(int argc, char **argv, int *frames, int *tsize) {
    rd_int_args(argc, argv, "FRAMES TEMPLATE_HALF_SIZE OUTPUT", "frames", frames,
                "template half size", tsize, RD_END);
    rd_require(*tsize <= HW_MAX_TSIZE, "template half size must be at most %d\n", HW_MAX_TSIZE);
}
#endif
