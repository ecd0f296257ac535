/* leukocyte, OpenMP: as Rodinia's OpenMP version, the GICOV scores and
 * the dilation run in parallel loops over the image rows, and the MGVF
 * solves run in parallel over the cells; each solve sums its change in the
 * CUDA block's order (LK_THREADS strided partial sums, then a pairwise
 * tree), so both versions stop after the same iteration. */
#include <omp.h>
#include <string.h>
#include "leukocyte_common.h"

static void gicov_image(const float *gx, const float *gy, float *gicov, int rows, int cols,
                        const float *sn, const float *cs, const int *tx, const int *ty) {
#pragma omp parallel for schedule(static)
    for (int y = 0; y < rows; y++) {
        float g[LK_NPOINTS];
        for (int x = 0; x < cols; x++) {
            float best = 0.0f;
            if (y >= LK_MARGIN && y < rows - LK_MARGIN && x >= LK_MARGIN && x < cols - LK_MARGIN) {
                for (int k = 0; k < LK_NCIRCLES; k++) {
                    for (int n = 0; n < LK_NPOINTS; n++) {
                        int q = (y + ty[k * LK_NPOINTS + n]) * cols + x + tx[k * LK_NPOINTS + n];
                        g[n] = gx[q] * cs[n] + gy[q] * sn[n];
                    }
                    float s = lk_score(g, LK_NPOINTS);
                    if (s > best) best = s;
                }
            }
            gicov[(size_t)y * cols + x] = best;
        }
    }
}

static void dilate(const float *img, float *out, int rows, int cols, const float *strel) {
#pragma omp parallel for schedule(static)
    for (int y = 0; y < rows; y++)
        for (int x = 0; x < cols; x++) {
            float m = 0.0f;
            for (int i = 0; i < LK_STREL; i++) {
                int yy = y + i - LK_STREL_R;
                if (yy < 0 || yy >= rows) continue;
                for (int j = 0; j < LK_STREL; j++) {
                    int xx = x + j - LK_STREL_R;
                    if (xx < 0 || xx >= cols || strel[i * LK_STREL + j] == 0.0f) continue;
                    float v = img[yy * cols + xx];
                    if (v > m) m = v;
                }
            }
            out[(size_t)y * cols + x] = m;
        }
}

static int mgvf(const float *img, float *v) {
    const int n = LK_SUB * LK_SUB;
    float nv[LK_SUB * LK_SUB], red[LK_THREADS];
    memcpy(v, img, (size_t)n * sizeof(float));
    int iter = 0;
    while (1) {
        for (int t = 0; t < LK_THREADS; t++) {
            float change = 0.0f;
            for (int k = 0; k < LK_PER_THREAD; k++) {
                int i = t + k * LK_THREADS;
                if (i < n) {
                    nv[i] = lk_mgvf_new(v, img, i / LK_SUB, i % LK_SUB);
                    change += fabsf(nv[i] - v[i]);
                }
            }
            red[t] = change;
        }
        memcpy(v, nv, (size_t)n * sizeof(float));
        for (int st = LK_THREADS / 2; st > 0; st >>= 1)
            for (int t = 0; t < st; t++) red[t] += red[t + st];
        iter++;
        if (red[0] / (float)n < LK_TOLERANCE || iter >= LK_MAX_ITER) break;
    }
    return iter;
}

int main(int argc, char **argv) {
    int rows, cols, wanted, frames;
    lk_args(argc, argv, &rows, &cols, &wanted, &frames);
    size_t npx = (size_t)rows * cols;
    lk_cell truth[LK_MAX_CELLS];
    int ntruth = lk_make_cells(rows, cols, wanted, truth);
    float *video = (float *)malloc(npx * frames * sizeof(float));
    for (int f = 0; f < frames; f++) lk_frame(f, rows, cols, ntruth, truth, video + npx * f);
    float *gx = (float *)malloc(npx * sizeof(float)), *gy = (float *)malloc(npx * sizeof(float));
    float *gicov = (float *)malloc(npx * sizeof(float));
    float *dilated = (float *)malloc(npx * sizeof(float));
    float sn[LK_NPOINTS], cs[LK_NPOINTS], strel[LK_STREL * LK_STREL];
    int tx[LK_NCIRCLES * LK_NPOINTS], ty[LK_NCIRCLES * LK_NPOINTS];
    lk_circles(sn, cs, tx, ty);
    lk_strel(strel);
    const int sub = LK_SUB * LK_SUB;
    float *starts = (float *)malloc((size_t)LK_MAX_CELLS * sub * sizeof(float));
    float *fields = (float *)malloc((size_t)LK_MAX_CELLS * sub * sizeof(float));
    int iters[LK_MAX_CELLS], cy[LK_MAX_CELLS], cx[LK_MAX_CELLS], cy0[LK_MAX_CELLS],
        cx0[LK_MAX_CELLS];
    int *track = (int *)malloc((size_t)frames * LK_MAX_CELLS * 3 * sizeof(int));
    float *sums = (float *)malloc((size_t)frames * LK_MAX_CELLS * sizeof(float));

    double t0 = rd_now();
    lk_gradient(video, rows, cols, gx, gy);
    gicov_image(gx, gy, gicov, rows, cols, sn, cs, tx, ty);
    dilate(gicov, dilated, rows, cols, strel);
    int ncells = lk_pick(gicov, dilated, rows, cols, cy, cx);
    memcpy(cy0, cy, sizeof cy);
    memcpy(cx0, cx, sizeof cx);

    for (int f = 1; f < frames; f++) {
        const float *img = video + npx * f;
        for (int k = 0; k < ncells; k++)
            lk_subimage(img, rows, cols, cy[k], cx[k], starts + (size_t)k * sub);
#pragma omp parallel for schedule(dynamic)
        for (int k = 0; k < ncells; k++)
            iters[k] = mgvf(starts + (size_t)k * sub, fields + (size_t)k * sub);
        for (int k = 0; k < ncells; k++) {
            const float *fk = fields + (size_t)k * sub;
            lk_centre(fk, rows, cols, &cy[k], &cx[k]);
            double s = 0.0;
            for (int i = 0; i < sub; i++) s += fk[i];
            size_t at = (size_t)(f - 1) * ncells + k;
            track[3 * at] = cy[k];
            track[3 * at + 1] = cx[k];
            track[3 * at + 2] = iters[k];
            sums[at] = (float)s;
        }
    }
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    lk_write(argv[5], ncells, cy0, cx0, frames, track, sums);
    RD_FREE(video, gx, gy, gicov, dilated, starts, fields, track, sums);
    return 0;
}
