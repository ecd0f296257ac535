/* heartwall: tracks sample points on the inner and outer heart wall
 * through a sequence of ultrasound frames by template matching.  As in
 * Rodinia, every frame is copied to the device and processed by one
 * kernel launch with a block per point: the block stages its template and
 * its search area in shared memory, reduces the template's statistics with
 * a shared tree, evaluates the normalised cross-correlation of every
 * candidate displacement (threads share the candidates), picks the best
 * with a shared argmax tree, moves the point, and blends the matched patch
 * into the template.  On frame 0 the kernel only cuts the templates. */
#include <cuda_runtime.h>
#include "heartwall_common.h"

__global__ void heartwall_kernel(const float *frame, float *templates, int *rows, int *cols,
                                 int *history, int tsize, int frame_no) {
    __shared__ float t_sh[HW_MAX_TSIDE * HW_MAX_TSIDE];
    __shared__ float s_sh[HW_MAX_SSIDE * HW_MAX_SSIDE];
    __shared__ float red[HW_THREADS];
    __shared__ float red2[HW_THREADS];
    __shared__ int red_i[HW_THREADS];
    int p = blockIdx.x, tx = threadIdx.x;
    int tside = 2 * tsize + 1, half = tsize + HW_MAX_MOVE, sside = 2 * half + 1;
    int tn = tside * tside;
    int r0 = rows[p], c0 = cols[p];
    float *tmpl = templates + (size_t)p * HW_MAX_TSIDE * HW_MAX_TSIDE;

    for (int i = tx; i < sside * sside; i += HW_THREADS) {
        int r = hw_clamp(r0 - half + i / sside, 0, HW_ROWS - 1);
        int c = hw_clamp(c0 - half + i % sside, 0, HW_COLS - 1);
        s_sh[i] = frame[r * HW_COLS + c];
    }
    if (frame_no == 0) {
        __syncthreads();
        for (int i = tx; i < tn; i += HW_THREADS)
            tmpl[i] = s_sh[(HW_MAX_MOVE + i / tside) * sside + HW_MAX_MOVE + i % tside];
        if (tx == 0) {
            history[2 * p] = r0;
            history[2 * p + 1] = c0;
        }
        return;
    }
    for (int i = tx; i < tn; i += HW_THREADS) t_sh[i] = tmpl[i];
    __syncthreads();

    /* The template's sum and sum of squares. */
    float a = 0.0f, b = 0.0f;
    for (int i = tx; i < tn; i += HW_THREADS) {
        a += t_sh[i];
        b += t_sh[i] * t_sh[i];
    }
    red[tx] = a;
    red2[tx] = b;
    __syncthreads();
    for (int s = HW_THREADS / 2; s > 0; s >>= 1) {
        if (tx < s) {
            red[tx] += red[tx + s];
            red2[tx] += red2[tx + s];
        }
        __syncthreads();
    }
    float n = (float)tn, tsum = red[0], tvar = red2[0] - red[0] * red[0] / n;
    __syncthreads();

    /* Normalised cross-correlation of every candidate displacement. */
    float best = -FLT_MAX;
    int best_i = -1;
    for (int c = tx; c < HW_CSIDE * HW_CSIDE; c += HW_THREADS) {
        int dy = c / HW_CSIDE, dx = c % HW_CSIDE;
        float ws = 0.0f, wq = 0.0f, x = 0.0f;
        for (int i = 0; i < tside; i++) {
            const float *row = s_sh + (dy + i) * sside + dx;
            const float *trow = t_sh + i * tside;
            for (int j = 0; j < tside; j++) {
                float v = row[j];
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
    red[tx] = best;
    red_i[tx] = best_i;
    __syncthreads();
    for (int s = HW_THREADS / 2; s > 0; s >>= 1) {
        if (tx < s) {
            float o = red[tx + s];
            int oi = red_i[tx + s];
            if (o > red[tx] || (o == red[tx] && oi < red_i[tx])) {
                red[tx] = o;
                red_i[tx] = oi;
            }
        }
        __syncthreads();
    }
    int bi = red_i[0];
    int by = bi / HW_CSIDE, bx = bi % HW_CSIDE;

    /* Blend the matched patch into the template. */
    for (int i = tx; i < tn; i += HW_THREADS) {
        float v = s_sh[(by + i / tside) * sside + bx + i % tside];
        tmpl[i] = HW_ALPHA * t_sh[i] + (1.0f - HW_ALPHA) * v;
    }
    if (tx == 0) {
        int r = hw_clamp(r0 + by - HW_MAX_MOVE, 0, HW_ROWS - 1);
        int c = hw_clamp(c0 + bx - HW_MAX_MOVE, 0, HW_COLS - 1);
        rows[p] = r;
        cols[p] = c;
        history[2 * ((size_t)frame_no * HW_POINTS + p)] = r;
        history[2 * ((size_t)frame_no * HW_POINTS + p) + 1] = c;
    }
}

int main(int argc, char **argv) {
    int frames, tsize;
    hw_args(argc, argv, &frames, &tsize);
    size_t npx = (size_t)HW_ROWS * HW_COLS;
    size_t tbytes = (size_t)HW_POINTS * HW_MAX_TSIDE * HW_MAX_TSIDE * sizeof(float);
    size_t hbytes = (size_t)frames * HW_POINTS * 2 * sizeof(int);
    unsigned char *video = (unsigned char *)malloc(npx * frames);
    float *frame = (float *)malloc(npx * sizeof(float));
    float *templates = (float *)malloc(tbytes);
    int *history = (int *)malloc(hbytes);
    int rows[HW_POINTS], cols[HW_POINTS];
    for (int f = 0; f < frames; f++) hw_frame(f, video + npx * f);
    hw_points(rows, cols);

    float *d_frame, *d_templates;
    int *d_rows, *d_cols, *d_history;
    RD_CUDA_CHECK(cudaMalloc(&d_frame, npx * sizeof(float)));
    RD_CUDA_CHECK(cudaMalloc(&d_templates, tbytes));
    RD_CUDA_CHECK(cudaMalloc(&d_rows, sizeof rows));
    RD_CUDA_CHECK(cudaMalloc(&d_cols, sizeof cols));
    RD_CUDA_CHECK(cudaMalloc(&d_history, hbytes));

    double t0 = rd_now();
    RD_CUDA_CHECK(cudaMemcpy(d_rows, rows, sizeof rows, cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_cols, cols, sizeof cols, cudaMemcpyHostToDevice));
    for (int f = 0; f < frames; f++) {
        const unsigned char *px = video + npx * f;
        for (size_t i = 0; i < npx; i++) frame[i] = (float)px[i];
        RD_CUDA_CHECK(cudaMemcpy(d_frame, frame, npx * sizeof(float), cudaMemcpyHostToDevice));
        heartwall_kernel<<<HW_POINTS, HW_THREADS>>>(d_frame, d_templates, d_rows, d_cols,
                                                    d_history, tsize, f);
        RD_CUDA_CHECK(cudaGetLastError());
    }
    RD_CUDA_CHECK(cudaMemcpy(history, d_history, hbytes, cudaMemcpyDeviceToHost));
    RD_CUDA_CHECK(cudaMemcpy(templates, d_templates, tbytes, cudaMemcpyDeviceToHost));
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    hw_write(argv[3], frames, history, templates, 2 * tsize + 1);
    RD_CUDA_FREE(d_frame, d_templates, d_rows, d_cols, d_history);
    RD_FREE(video, frame, templates, history);
    return 0;
}
