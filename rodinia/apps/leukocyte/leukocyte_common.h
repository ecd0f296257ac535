/* leukocyte: the synthesised microscopy frames (circular cells drifting
 * across a speckled background), the sample circles of the detector, the
 * host's image work (gradients, the cells' choice, the tracking
 * sub-images, the new centres) and the output, shared by both versions.
 *
 * The MGVF update and the reduction order of its convergence test are
 * here too (`lk_mgvf_new`, `lk_tree`), so both versions iterate the same
 * number of times. */
#ifndef LEUKOCYTE_COMMON_H
#define LEUKOCYTE_COMMON_H
#include <float.h>
#include <math.h>
#include "rodinia_common.h"

#ifdef __CUDACC__
#define LK_FN static inline __host__ __device__
#else
#define LK_FN static inline
#endif

#define LK_NCIRCLES 7   /* radii tried by the detector, as in Rodinia */
#define LK_MIN_RAD 8
#define LK_NPOINTS 150  /* sample points per circle, as in Rodinia */
#define LK_MARGIN (LK_MIN_RAD + LK_NCIRCLES + 1)
#define LK_STREL_R 12   /* dilation disk radius */
#define LK_STREL (2 * LK_STREL_R + 1)
#define LK_THRESHOLD 4.0f
#define LK_MAX_CELLS 128
#define LK_SUB_R 20     /* tracking sub-image: (2 * LK_SUB_R + 1)^2 pixels */
#define LK_SUB (2 * LK_SUB_R + 1)
#define LK_THREADS 256
#define LK_PER_THREAD ((LK_SUB * LK_SUB + LK_THREADS - 1) / LK_THREADS)
#define LK_MU 0.5f
#define LK_LAMBDA (8.0f * LK_MU + 1.0f)
#define LK_TOLERANCE 1e-4f
#define LK_MAX_ITER 500

static inline unsigned lk_hash(unsigned x) {
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

/* The true cells: on a jittered grid, radius 9-11, each drifting by a
 * constant integer velocity. */
typedef struct {
    int y, x, r, vy, vx;
} lk_cell;

static inline int lk_make_cells(int rows, int cols, int wanted, lk_cell *cells) {
    rd_rng g = rd_seed(1913);
    int side = 1;
    while (side * side < wanted) side++;
    int n = 0;
    int sy = (rows - 2 * 40) / side, sx = (cols - 2 * 40) / side;
    for (int i = 0; i < side && n < wanted; i++)
        for (int j = 0; j < side && n < wanted; j++) {
            lk_cell c;
            c.y = 40 + i * sy + sy / 2 + (sy > 8 ? rd_below(&g, sy / 4 + 1) - sy / 8 : 0);
            c.x = 40 + j * sx + sx / 2 + (sx > 8 ? rd_below(&g, sx / 4 + 1) - sx / 8 : 0);
            c.r = 9 + rd_below(&g, 3);
            c.vy = rd_below(&g, 3) - 1;
            c.vx = rd_below(&g, 3) - 1;
            cells[n++] = c;
        }
    return n;
}

/* Frame f as floats: background 100, cell interiors 150, a dark boundary
 * ring, speckle noise.  Integer arithmetic decides every pixel. */
static inline void lk_frame(int f, int rows, int cols, int ncells, const lk_cell *cells,
                            float *img) {
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < cols; x++) {
            int v = 100;
            for (int k = 0; k < ncells; k++) {
                int dy = y - (cells[k].y + f * cells[k].vy), dx = x - (cells[k].x + f * cells[k].vx);
                int d2 = dy * dy + dx * dx, r = cells[k].r;
                if (d2 <= (r - 2) * (r - 2))
                    v = 150;
                else if (d2 <= (r + 1) * (r + 1))
                    v = 50;
            }
            v += (int)(lk_hash((unsigned)(y * cols + x) * 31u + (unsigned)f) % 24);
            img[(size_t)y * cols + x] = (float)v;
        }
}

/* Central-difference gradients, zero on the border. */
static inline void lk_gradient(const float *img, int rows, int cols, float *gx, float *gy) {
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < cols; x++) {
            size_t i = (size_t)y * cols + x;
            int inside = y > 0 && y < rows - 1 && x > 0 && x < cols - 1;
            gx[i] = inside ? 0.5f * (img[i + 1] - img[i - 1]) : 0.0f;
            gy[i] = inside ? 0.5f * (img[i + cols] - img[i - cols]) : 0.0f;
        }
}

/* The detector's sample circles: sines, cosines and rounded offsets. */
static inline void lk_circles(float *sn, float *cs, int *tx, int *ty) {
    for (int n = 0; n < LK_NPOINTS; n++) {
        double a = 2.0 * 3.14159265358979 * n / LK_NPOINTS;
        sn[n] = (float)sin(a);
        cs[n] = (float)cos(a);
        for (int k = 0; k < LK_NCIRCLES; k++) {
            tx[k * LK_NPOINTS + n] = (int)lrint((LK_MIN_RAD + k) * cos(a));
            ty[k * LK_NPOINTS + n] = (int)lrint((LK_MIN_RAD + k) * sin(a));
        }
    }
}

/* The dilation's disk. */
static inline void lk_strel(float *strel) {
    for (int i = 0; i < LK_STREL; i++)
        for (int j = 0; j < LK_STREL; j++) {
            int dy = i - LK_STREL_R, dx = j - LK_STREL_R;
            strel[i * LK_STREL + j] = dy * dy + dx * dx <= LK_STREL_R * LK_STREL_R ? 1.0f : 0.0f;
        }
}

/* The GICOV score of one circle: mean over standard deviation of the
 * gradient's outward component at the sample points. */
LK_FN float lk_score(const float *g, int n) {
    float sum = 0.0f;
    for (int i = 0; i < n; i++) sum += g[i];
    float mean = sum / (float)n, var = 0.0f;
    for (int i = 0; i < n; i++) var += (g[i] - mean) * (g[i] - mean);
    var /= (float)(n - 1);
    return var > 0.0f ? mean / sqrtf(var) : 0.0f;
}

/* Detected cells: local maxima of the GICOV score (equal to their
 * dilation) above the threshold, in scan order. */
static inline int lk_pick(const float *gicov, const float *dilated, int rows, int cols, int *cy,
                          int *cx) {
    int n = 0;
    for (int y = LK_SUB_R; y < rows - LK_SUB_R; y++)
        for (int x = LK_SUB_R; x < cols - LK_SUB_R; x++) {
            size_t i = (size_t)y * cols + x;
            if (gicov[i] > LK_THRESHOLD && gicov[i] == dilated[i] && n < LK_MAX_CELLS) {
                cy[n] = y;
                cx[n] = x;
                n++;
            }
        }
    return n;
}

/* The MGVF start for a cell: the gradient magnitude of the sub-image
 * around (cy, cx), scaled to [0, 1]. */
static inline void lk_subimage(const float *img, int rows, int cols, int cy, int cx, float *out) {
    float top = 0.0f;
    for (int i = 0; i < LK_SUB; i++)
        for (int j = 0; j < LK_SUB; j++) {
            int y = cy - LK_SUB_R + i, x = cx - LK_SUB_R + j;
            float gx = 0.0f, gy = 0.0f;
            if (y > 0 && y < rows - 1 && x > 0 && x < cols - 1) {
                size_t k = (size_t)y * cols + x;
                gx = 0.5f * (img[k + 1] - img[k - 1]);
                gy = 0.5f * (img[k + cols] - img[k - cols]);
            }
            float m = sqrtf(gx * gx + gy * gy);
            out[i * LK_SUB + j] = m;
            if (m > top) top = m;
        }
    for (int i = 0; i < LK_SUB * LK_SUB; i++) out[i] = top > 0.0f ? out[i] / top : 0.0f;
}

LK_FN float lk_heaviside(float z) { return atanf(z * 8.0f) * 0.318309886f + 0.5f; }

/* One MGVF update of pixel (i, j) from the old field `v` and the start
 * image `img` (neighbours outside the sub-image count as the pixel). */
LK_FN float lk_mgvf_new(const float *v, const float *img, int i, int j) {
    float c = v[i * LK_SUB + j];
    int u = i > 0 ? i - 1 : i, d = i < LK_SUB - 1 ? i + 1 : i;
    int l = j > 0 ? j - 1 : j, r = j < LK_SUB - 1 ? j + 1 : j;
    float up = v[u * LK_SUB + j] - c, down = v[d * LK_SUB + j] - c;
    float left = v[i * LK_SUB + l] - c, right = v[i * LK_SUB + r] - c;
    float ur = v[u * LK_SUB + r] - c, dr = v[d * LK_SUB + r] - c;
    float ul = v[u * LK_SUB + l] - c, dl = v[d * LK_SUB + l] - c;
    float h = lk_heaviside(-up) * up + lk_heaviside(down) * down + lk_heaviside(-left) * left +
              lk_heaviside(right) * right + lk_heaviside(-ur) * ur + lk_heaviside(dr) * dr +
              lk_heaviside(-ul) * ul + lk_heaviside(dl) * dl;
    float e = img[i * LK_SUB + j];
    return c + (LK_MU / LK_LAMBDA) * h - (1.0f / LK_LAMBDA) * e * (c - e);
}

/* The new centre of a cell: the centroid (integer division) of the
 * sub-image pixels whose MGVF is at least half its maximum. */
static inline void lk_centre(const float *v, int rows, int cols, int *cy, int *cx) {
    float top = 0.0f;
    for (int i = 0; i < LK_SUB * LK_SUB; i++)
        if (v[i] > top) top = v[i];
    long sy = 0, sx = 0, n = 0;
    for (int i = 0; i < LK_SUB; i++)
        for (int j = 0; j < LK_SUB; j++)
            if (v[i * LK_SUB + j] >= 0.5f * top) {
                sy += i;
                sx += j;
                n++;
            }
    if (n > 0) {
        *cy += (int)(sy / n) - LK_SUB_R;
        *cx += (int)(sx / n) - LK_SUB_R;
    }
    if (*cy < LK_SUB_R) *cy = LK_SUB_R;
    if (*cy > rows - 1 - LK_SUB_R) *cy = rows - 1 - LK_SUB_R;
    if (*cx < LK_SUB_R) *cx = LK_SUB_R;
    if (*cx > cols - 1 - LK_SUB_R) *cx = cols - 1 - LK_SUB_R;
}

/* The detected cells, then per tracked frame and cell: the centre, the
 * MGVF iterations and the field's sum. */
static inline void lk_write(const char *path, int ncells, const int *cy0, const int *cx0,
                            int frames, const int *track, const float *sums) {
    FILE *f = rd_open_output(path);
    fprintf(f, "%d\n", ncells);
    for (int k = 0; k < ncells; k++) fprintf(f, "%d %d\n", cy0[k], cx0[k]);
    for (int i = 0; i < (frames - 1) * ncells; i++)
        fprintf(f, "%d %d %d " RD_FLOAT_FMT "\n", track[3 * i], track[3 * i + 1], track[3 * i + 2],
                sums[i]);
    fclose(f);
}

/* Parses ROWS COLS CELLS FRAMES OUTPUT, or exits. */
static inline void lk_args(int argc, char **argv, int *rows, int *cols, int *cells, int *frames) {
    rd_int_args(argc, argv, "ROWS COLS CELLS FRAMES OUTPUT", "rows", rows, "cols", cols, "cells",
                cells, "frames", frames, RD_END);
    rd_require(*rows >= 100 && *cols >= 100 && *cells <= LK_MAX_CELLS,
               "need rows, cols >= 100 and cells <= %d\n", LK_MAX_CELLS);
}
#endif
