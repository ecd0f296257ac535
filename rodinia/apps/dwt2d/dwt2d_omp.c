/* dwt2d, OpenMP (Rodinia has no OpenMP version; this is the natural
 * one): per component and level (5/3 or 9/7), the rows of the band are
 * lifted in parallel (each in a private line buffer, written deinterleaved
 * to a scratch band), then the columns, in parallel strips of 16 so that
 * each thread reads whole cache lines, back into the result. */
#include <omp.h>
#include "dwt2d_common.h"

#define STRIP 16

/* Lifts one line of n samples in place (5/3, symmetric extension) and
 * writes it deinterleaved: out[k * step] for k in [0, n). */
static void lift_line(int *line, int n, int *out, size_t step) {
    for (int i = 1; i < n; i += 2)
        line[i] -= (line[dw_mirror(i - 1, n)] + line[dw_mirror(i + 1, n)]) >> 1;
    for (int i = 0; i < n; i += 2)
        line[i] += (line[dw_mirror(i - 1, n)] + line[dw_mirror(i + 1, n)] + 2) >> 2;
    int half = (n + 1) / 2;
    for (int i = 0; i < n; i++) out[(size_t)((i & 1) ? half + i / 2 : i / 2) * step] = line[i];
}

/* The 9/7 line: four lifting steps, then the bands' scaling. */
static void lift_line97(float *line, int n, float *out, size_t step) {
    const float coef[4] = {DW_ALPHA, DW_BETA, DW_GAMMA, DW_DELTA};
    for (int k = 0; k < 4; k++)
        for (int i = (k + 1) & 1; i < n; i += 2)
            line[i] += coef[k] * (line[dw_mirror(i - 1, n)] + line[dw_mirror(i + 1, n)]);
    for (int i = 0; i < n; i++) line[i] *= (i & 1) ? DW_K : 1.0f / DW_K;
    int half = (n + 1) / 2;
    for (int i = 0; i < n; i++) out[(size_t)((i & 1) ? half + i / 2 : i / 2) * step] = line[i];
}

static void level97(const float *in, float *out, float *tmp, int w, int h, int stride) {
#pragma omp parallel
    {
        float *line = (float *)malloc((size_t)(w > h ? w : h) * STRIP * sizeof(float));
#pragma omp for schedule(static)
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) line[x] = in[(size_t)y * stride + x];
            lift_line97(line, w, tmp + (size_t)y * stride, 1);
        }
#pragma omp for schedule(static)
        for (int x0 = 0; x0 < w; x0 += STRIP) {
            int width = w - x0 < STRIP ? w - x0 : STRIP;
            for (int y = 0; y < h; y++)
                for (int j = 0; j < width; j++)
                    line[(size_t)j * h + y] = tmp[(size_t)y * stride + x0 + j];
            for (int j = 0; j < width; j++)
                lift_line97(line + (size_t)j * h, h, out + x0 + j, stride);
        }
        free(line);
    }
}

static void level(const int *in, int *out, int *tmp, int w, int h, int stride) {
#pragma omp parallel
    {
        int *line = (int *)malloc((size_t)(w > h ? w : h) * STRIP * sizeof(int));
#pragma omp for schedule(static)
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) line[x] = in[(size_t)y * stride + x];
            lift_line(line, w, tmp + (size_t)y * stride, 1);
        }
#pragma omp for schedule(static)
        for (int x0 = 0; x0 < w; x0 += STRIP) {
            int width = w - x0 < STRIP ? w - x0 : STRIP;
            for (int y = 0; y < h; y++)
                for (int j = 0; j < width; j++)
                    line[(size_t)j * h + y] = tmp[(size_t)y * stride + x0 + j];
            for (int j = 0; j < width; j++) lift_line(line + (size_t)j * h, h, out + x0 + j, stride);
        }
        free(line);
    }
}

int main(int argc, char **argv) {
    int w, h, levels, t97;
    dw_args(argc, argv, &w, &h, &levels, &t97);
    size_t n = (size_t)w * h;
    unsigned char *rgb = (unsigned char *)malloc(3 * n);
    size_t esize = t97 ? sizeof(float) : sizeof(int);
    void *comp[3], *result[3];
    void *tmp = malloc(n * esize);
    for (int c = 0; c < 3; c++) {
        comp[c] = malloc(n * esize);
        result[c] = malloc(n * esize);
    }
    dw_generate(w, h, rgb);

    double t0 = rd_now();
#pragma omp parallel for schedule(static)
    for (size_t p = 0; p < n; p++)
        for (int c = 0; c < 3; c++) {
            int v = (int)rgb[3 * p + c] - 128;
            if (t97)
                ((float *)comp[c])[p] = (float)v;
            else
                ((int *)comp[c])[p] = v;
        }
    for (int c = 0; c < 3; c++) {
        int cw = w, ch = h;
        for (int l = 0; l < levels; l++) {
            /* Level 0 reads the component; later levels read the low band,
             * which only this level's column pass overwrites. */
            void *from = l == 0 ? comp[c] : result[c];
            if (t97)
                level97((const float *)from, (float *)result[c], (float *)tmp, cw, ch, w);
            else
                level((const int *)from, (int *)result[c], (int *)tmp, cw, ch, w);
            cw = (cw + 1) / 2;
            ch = (ch + 1) / 2;
        }
    }
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    if (t97)
        dw_write_f(argv[5], w, h, (float *const *)result);
    else
        dw_write(argv[5], w, h, (int *const *)result);
    for (int c = 0; c < 3; c++) {
        RD_FREE(comp[c], result[c]);
    }
    RD_FREE(tmp, rgb);
    return 0;
}
