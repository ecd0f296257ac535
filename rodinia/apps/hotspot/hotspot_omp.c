/* hotspot, OpenMP: the same time steps as a plain 5-point stencil over the
 * whole grid, rows shared among the threads, two buffers swapped per step. */
#include <omp.h>
#include "hotspot_input.h"

static void step_grid(const float *power, const float *src, float *dst, int rows, int cols,
                      hs_coeffs c) {
    float k = c.step / c.cap;
    float inv_rx = 1.0f / c.rx, inv_ry = 1.0f / c.ry, inv_rz = 1.0f / c.rz;
#pragma omp parallel for schedule(static)
    for (int y = 0; y < rows; y++) {
        int n = y > 0 ? y - 1 : y;
        int s = y < rows - 1 ? y + 1 : y;
        for (int x = 0; x < cols; x++) {
            int w = x > 0 ? x - 1 : x;
            int e = x < cols - 1 ? x + 1 : x;
            float t = src[y * cols + x];
            dst[y * cols + x] =
                t + k * (power[y * cols + x] + (src[s * cols + x] + src[n * cols + x] - 2.0f * t) * inv_ry +
                         (src[y * cols + e] + src[y * cols + w] - 2.0f * t) * inv_rx +
                         (HS_AMBIENT - t) * inv_rz);
        }
    }
}

int main(int argc, char **argv) {
    rd_usage(argc, argv, 5, "ROWS COLS PYRAMID_HEIGHT ITERATIONS OUTPUT");
    int rows = rd_arg_int(argv[1], "rows");
    int cols = rd_arg_int(argv[2], "cols");
    (void)rd_arg_int(argv[3], "pyramid height");
    int iterations = rd_arg_int(argv[4], "iterations");
    size_t n = (size_t)rows * cols;
    float *temp = (float *)malloc(n * sizeof(float));
    float *power = (float *)malloc(n * sizeof(float));
    float *other = (float *)malloc(n * sizeof(float));
    hs_generate(rows, cols, temp, power);
    hs_coeffs c = hs_make_coeffs(rows, cols);

    double t0 = rd_now();
    float *src = temp, *dst = other;
    for (int t = 0; t < iterations; t++) {
        step_grid(power, src, dst, rows, cols, c);
        float *tmp = src;
        src = dst;
        dst = tmp;
    }
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    hs_write(argv[5], rows, cols, src);
    RD_FREE(temp, other, power);
    return 0;
}
