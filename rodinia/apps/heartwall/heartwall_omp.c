/* heartwall, OpenMP: per frame, the points are tracked in a parallel loop
 * (as in Rodinia's OpenMP version), each point doing what one CUDA block
 * does: the template's statistics summed in the kernel's order (256
 * strided partial sums, then a pairwise tree), every candidate's
 * correlation, the first best candidate, the template blend. */
#include <omp.h>
#include <string.h>
#include "heartwall_common.h"

static void track(const float *frame, float *tmpl, int *row, int *col, int *hist, int tsize,
                  int frame_no, float *s_sh, float *t_sh) {
    int tside = 2 * tsize + 1, half = tsize + HW_MAX_MOVE, sside = 2 * half + 1;
    int tn = tside * tside;
    int r0 = *row, c0 = *col;
    for (int i = 0; i < sside * sside; i++) {
        int r = hw_clamp(r0 - half + i / sside, 0, HW_ROWS - 1);
        int c = hw_clamp(c0 - half + i % sside, 0, HW_COLS - 1);
        s_sh[i] = frame[r * HW_COLS + c];
    }
    if (frame_no == 0) {
        for (int i = 0; i < tn; i++)
            tmpl[i] = s_sh[(HW_MAX_MOVE + i / tside) * sside + HW_MAX_MOVE + i % tside];
        hist[0] = r0;
        hist[1] = c0;
        return;
    }
    memcpy(t_sh, tmpl, (size_t)tn * sizeof(float));
    float red[HW_THREADS], red2[HW_THREADS];
    for (int t = 0; t < HW_THREADS; t++) {
        float a = 0.0f, b = 0.0f;
        for (int i = t; i < tn; i += HW_THREADS) {
            a += t_sh[i];
            b += t_sh[i] * t_sh[i];
        }
        red[t] = a;
        red2[t] = b;
    }
    for (int s = HW_THREADS / 2; s > 0; s >>= 1)
        for (int t = 0; t < s; t++) {
            red[t] += red[t + s];
            red2[t] += red2[t + s];
        }
    float n = (float)tn, tsum = red[0], tvar = red2[0] - red[0] * red[0] / n;

    float best = -FLT_MAX;
    int best_i = -1;
    for (int c = 0; c < HW_CSIDE * HW_CSIDE; c++) {
        int dy = c / HW_CSIDE, dx = c % HW_CSIDE;
        float ws = 0.0f, wq = 0.0f, x = 0.0f;
        for (int i = 0; i < tside; i++) {
            const float *srow = s_sh + (dy + i) * sside + dx;
            const float *trow = t_sh + i * tside;
            for (int j = 0; j < tside; j++) {
                float v = srow[j];
                ws += v;
                wq += v * v;
                x += v * trow[j];
            }
        }
        float wvar = wq - ws * ws / n;
        float num = x - ws * tsum / n;
        float den = sqrtf(tvar * wvar);
        float ncc = den > 0.0f ? num / den : 0.0f;
        if (ncc > best) {
            best = ncc;
            best_i = c;
        }
    }
    int by = best_i / HW_CSIDE, bx = best_i % HW_CSIDE;
    for (int i = 0; i < tn; i++) {
        float v = s_sh[(by + i / tside) * sside + bx + i % tside];
        tmpl[i] = HW_ALPHA * t_sh[i] + (1.0f - HW_ALPHA) * v;
    }
    *row = hw_clamp(r0 + by - HW_MAX_MOVE, 0, HW_ROWS - 1);
    *col = hw_clamp(c0 + bx - HW_MAX_MOVE, 0, HW_COLS - 1);
    hist[0] = *row;
    hist[1] = *col;
}

int main(int argc, char **argv) {
    int frames, tsize;
    hw_args(argc, argv, &frames, &tsize);
    size_t npx = (size_t)HW_ROWS * HW_COLS;
    size_t tbytes = (size_t)HW_POINTS * HW_MAX_TSIDE * HW_MAX_TSIDE * sizeof(float);
    unsigned char *video = (unsigned char *)malloc(npx * frames);
    float *frame = (float *)malloc(npx * sizeof(float));
    float *templates = (float *)malloc(tbytes);
    int *history = (int *)malloc((size_t)frames * HW_POINTS * 2 * sizeof(int));
    int rows[HW_POINTS], cols[HW_POINTS];
    for (int f = 0; f < frames; f++) hw_frame(f, video + npx * f);
    hw_points(rows, cols);

    double t0 = rd_now();
    for (int f = 0; f < frames; f++) {
        const unsigned char *px = video + npx * f;
        for (size_t i = 0; i < npx; i++) frame[i] = (float)px[i];
#pragma omp parallel
        {
            float *s_sh = (float *)malloc(HW_MAX_SSIDE * HW_MAX_SSIDE * sizeof(float));
            float *t_sh = (float *)malloc(HW_MAX_TSIDE * HW_MAX_TSIDE * sizeof(float));
#pragma omp for schedule(dynamic)
            for (int p = 0; p < HW_POINTS; p++)
                track(frame, templates + (size_t)p * HW_MAX_TSIDE * HW_MAX_TSIDE, &rows[p],
                      &cols[p], history + 2 * ((size_t)f * HW_POINTS + p), tsize, f, s_sh, t_sh);
            free(s_sh);
            free(t_sh);
        }
    }
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    hw_write(argv[3], frames, history, templates, 2 * tsize + 1);
    RD_FREE(video, frame, templates, history);
    return 0;
}
