/* hotspot: transient thermal simulation of a chip (an explicit 5-point
 * stencil).  Each block loads a 16x16 tile with a halo into shared memory and
 * advances it several time steps ("pyramid" of shrinking valid regions) before
 * writing back, so the grid is read from global memory once per pyramid. */
#include <cuda_runtime.h>
#include "hotspot_input.h"

#define BLOCK 16

__global__ void hotspot_pyramid(int steps, const float *power, const float *src, float *dst,
                                int cols, int rows, float cap, float rx, float ry, float rz,
                                float step) {
    __shared__ float t_in[BLOCK][BLOCK];
    __shared__ float p_in[BLOCK][BLOCK];
    __shared__ float t_out[BLOCK][BLOCK];

    int tx = threadIdx.x, ty = threadIdx.y;
    float k = step / cap;
    float inv_rx = 1.0f / rx, inv_ry = 1.0f / ry, inv_rz = 1.0f / rz;

    /* Each block owns an output tile of `inner` cells per side; its input
     * tile reaches `steps` cells further in every direction. */
    int inner = BLOCK - 2 * steps;
    int y0 = inner * blockIdx.y - steps;
    int x0 = inner * blockIdx.x - steps;
    int y = y0 + ty, x = x0 + tx;
    int idx = y * cols + x;
    if (y >= 0 && y < rows && x >= 0 && x < cols) {
        t_in[ty][tx] = src[idx];
        p_in[ty][tx] = power[idx];
    }
    __syncthreads();

    /* The part of the tile inside the grid; neighbours outside it are
     * clamped to the cell itself (an insulated border). */
    int ymin = y0 < 0 ? -y0 : 0;
    int ymax = y0 + BLOCK - 1 > rows - 1 ? BLOCK - 1 - (y0 + BLOCK - rows) : BLOCK - 1;
    int xmin = x0 < 0 ? -x0 : 0;
    int xmax = x0 + BLOCK - 1 > cols - 1 ? BLOCK - 1 - (x0 + BLOCK - cols) : BLOCK - 1;
    int n = ty - 1 < ymin ? ymin : ty - 1;
    int s = ty + 1 > ymax ? ymax : ty + 1;
    int w = tx - 1 < xmin ? xmin : tx - 1;
    int e = tx + 1 > xmax ? xmax : tx + 1;

    bool computed = false;
    for (int i = 0; i < steps; i++) {
        computed = false;
        if (tx >= i + 1 && tx <= BLOCK - i - 2 && ty >= i + 1 && ty <= BLOCK - i - 2 &&
            tx >= xmin && tx <= xmax && ty >= ymin && ty <= ymax) {
            computed = true;
            float c = t_in[ty][tx];
            t_out[ty][tx] = c + k * (p_in[ty][tx] + (t_in[s][tx] + t_in[n][tx] - 2.0f * c) * inv_ry +
                                     (t_in[ty][e] + t_in[ty][w] - 2.0f * c) * inv_rx +
                                     (HS_AMBIENT - c) * inv_rz);
        }
        __syncthreads();
        if (i == steps - 1) break;
        if (computed) t_in[ty][tx] = t_out[ty][tx];
        __syncthreads();
    }
    if (computed) dst[idx] = t_out[ty][tx];
}

int main(int argc, char **argv) {
    rd_usage(argc, argv, 5, "ROWS COLS PYRAMID_HEIGHT ITERATIONS OUTPUT");
    int rows = rd_arg_int(argv[1], "rows");
    int cols = rd_arg_int(argv[2], "cols");
    int pyramid = rd_arg_int(argv[3], "pyramid height");
    int iterations = rd_arg_int(argv[4], "iterations");
    rd_require(2 * pyramid < BLOCK, "pyramid height must be below %d\n", BLOCK / 2);
    size_t n = (size_t)rows * cols;
    float *temp = (float *)malloc(n * sizeof(float));
    float *power = (float *)malloc(n * sizeof(float));
    hs_generate(rows, cols, temp, power);
    hs_coeffs c = hs_make_coeffs(rows, cols);

    int inner = BLOCK - 2 * pyramid;
    dim3 block(BLOCK, BLOCK);
    dim3 grid((cols + inner - 1) / inner, (rows + inner - 1) / inner);

    float *d_power, *d_temp[2];
    RD_CUDA_CHECK(cudaMalloc(&d_power, n * sizeof(float)));
    RD_CUDA_CHECK(cudaMalloc(&d_temp[0], n * sizeof(float)));
    RD_CUDA_CHECK(cudaMalloc(&d_temp[1], n * sizeof(float)));

    double t0 = rd_now();
    RD_CUDA_CHECK(cudaMemcpy(d_power, power, n * sizeof(float), cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_temp[0], temp, n * sizeof(float), cudaMemcpyHostToDevice));
    int cur = 0;
    for (int t = 0; t < iterations; t += pyramid) {
        int steps = iterations - t < pyramid ? iterations - t : pyramid;
        hotspot_pyramid<<<grid, block>>>(steps, d_power, d_temp[cur], d_temp[1 - cur], cols, rows,
                                         c.cap, c.rx, c.ry, c.rz, c.step);
        cur = 1 - cur;
    }
    RD_CUDA_CHECK(cudaGetLastError());
    RD_CUDA_CHECK(cudaMemcpy(temp, d_temp[cur], n * sizeof(float), cudaMemcpyDeviceToHost));
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    hs_write(argv[5], rows, cols, temp);
    RD_CUDA_FREE(d_power, d_temp[0], d_temp[1]);
    RD_FREE(temp, power);
    return 0;
}
