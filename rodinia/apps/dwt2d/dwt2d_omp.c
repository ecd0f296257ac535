/* dwt2d, OpenMP (Rodinia has no OpenMP version; this is the natural
 * one): per component and level, the rows of the band are lifted in
 * parallel (each in a private line buffer, written deinterleaved to a
 * scratch band), then the columns, in parallel strips of 16 so that each
 * thread reads whole cache lines, back into the result. */
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
    int w, h, levels;
    dw_args(argc, argv, &w, &h, &levels);
    size_t n = (size_t)w * h;
    unsigned char *rgb = (unsigned char *)malloc(3 * n);
    int *comp[3], *result[3];
    int *tmp = (int *)malloc(n * sizeof(int));
    for (int c = 0; c < 3; c++) {
        comp[c] = (int *)malloc(n * sizeof(int));
        result[c] = (int *)malloc(n * sizeof(int));
    }
    dw_generate(w, h, rgb);

    double t0 = rd_now();
#pragma omp parallel for schedule(static)
    for (size_t p = 0; p < n; p++) {
        comp[0][p] = (int)rgb[3 * p] - 128;
        comp[1][p] = (int)rgb[3 * p + 1] - 128;
        comp[2][p] = (int)rgb[3 * p + 2] - 128;
    }
    for (int c = 0; c < 3; c++) {
        int cw = w, ch = h;
        for (int l = 0; l < levels; l++) {
            /* Level 0 reads the component; later levels read the low band,
             * which only this level's column pass overwrites. */
            level(l == 0 ? comp[c] : result[c], result[c], tmp, cw, ch, w);
            cw = (cw + 1) / 2;
            ch = (ch + 1) / 2;
        }
    }
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    dw_write(argv[4], w, h, result);
    for (int c = 0; c < 3; c++) {
        free(comp[c]);
        free(result[c]);
    }
    free(tmp);
    free(rgb);
    return 0;
}
