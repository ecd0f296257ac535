/* srad_v2: per iteration, the host computes the region's statistics, then
 * two kernels over 16x16 blocks: the first loads a tile of J with a one-cell
 * halo into shared memory and computes the four directional derivatives and
 * the diffusion coefficient of each pixel; the second loads the coefficients
 * of the tile and its south/east halo and updates J by the divergence. */
#include <cuda_runtime.h>
#include "srad_common.h"

#define BLOCK 16

__global__ void srad_coefficients(const float *J, float *dn, float *ds, float *dw, float *de,
                                  float *c, int rows, int cols, float q0sqr) {
    __shared__ float tile[BLOCK + 2][BLOCK + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int r = blockIdx.y * BLOCK + ty, col = blockIdx.x * BLOCK + tx;
    int k = r * cols + col;

    tile[ty + 1][tx + 1] = J[k];
    /* Halo cells, clamped at the image border. */
    if (ty == 0) tile[0][tx + 1] = J[(r > 0 ? r - 1 : 0) * cols + col];
    if (ty == BLOCK - 1) tile[BLOCK + 1][tx + 1] = J[(r < rows - 1 ? r + 1 : rows - 1) * cols + col];
    if (tx == 0) tile[ty + 1][0] = J[r * cols + (col > 0 ? col - 1 : 0)];
    if (tx == BLOCK - 1) tile[ty + 1][BLOCK + 1] = J[r * cols + (col < cols - 1 ? col + 1 : cols - 1)];
    __syncthreads();

    float jc = tile[ty + 1][tx + 1];
    float n = tile[ty][tx + 1] - jc;
    float s = tile[ty + 2][tx + 1] - jc;
    float w = tile[ty + 1][tx] - jc;
    float e = tile[ty + 1][tx + 2] - jc;
    float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
    float l = (n + s + w + e) / jc;
    float num = 0.5f * g2 - (1.0f / 16.0f) * (l * l);
    float den = 1.0f + 0.25f * l;
    float qsqr = num / (den * den);
    den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
    float coeff = 1.0f / (1.0f + den);
    if (coeff < 0.0f) coeff = 0.0f;
    else if (coeff > 1.0f) coeff = 1.0f;
    dn[k] = n;
    ds[k] = s;
    dw[k] = w;
    de[k] = e;
    c[k] = coeff;
}

__global__ void srad_update(float *J, const float *dn, const float *ds, const float *dw,
                            const float *de, const float *c, int rows, int cols, float lambda) {
    __shared__ float cs[BLOCK + 1][BLOCK + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int r = blockIdx.y * BLOCK + ty, col = blockIdx.x * BLOCK + tx;
    int k = r * cols + col;

    cs[ty][tx] = c[k];
    if (ty == BLOCK - 1) cs[BLOCK][tx] = c[(r < rows - 1 ? r + 1 : rows - 1) * cols + col];
    if (tx == BLOCK - 1) cs[ty][BLOCK] = c[r * cols + (col < cols - 1 ? col + 1 : cols - 1)];
    __syncthreads();

    float cn = cs[ty][tx], cw = cs[ty][tx];
    float csouth = cs[ty + 1][tx], ceast = cs[ty][tx + 1];
    float d = cn * dn[k] + csouth * ds[k] + cw * dw[k] + ceast * de[k];
    J[k] = J[k] + 0.25f * lambda * d;
}

int main(int argc, char **argv) {
    srad_args a = srad_parse(argc, argv);
    size_t n = (size_t)a.rows * a.cols;
    float *J = srad_generate(a.rows, a.cols);
    float *d_J, *d_c, *d_n, *d_s, *d_w, *d_e;
    RD_CUDA_CHECK(cudaMalloc(&d_J, n * sizeof(float)));
    RD_CUDA_CHECK(cudaMalloc(&d_c, n * sizeof(float)));
    RD_CUDA_CHECK(cudaMalloc(&d_n, n * sizeof(float)));
    RD_CUDA_CHECK(cudaMalloc(&d_s, n * sizeof(float)));
    RD_CUDA_CHECK(cudaMalloc(&d_w, n * sizeof(float)));
    RD_CUDA_CHECK(cudaMalloc(&d_e, n * sizeof(float)));
    dim3 block(BLOCK, BLOCK);
    dim3 grid(a.cols / BLOCK, a.rows / BLOCK);

    double t0 = rd_now();
    for (int it = 0; it < a.niter; it++) {
        float q0sqr = srad_q0sqr(&a, J);
        RD_CUDA_CHECK(cudaMemcpy(d_J, J, n * sizeof(float), cudaMemcpyHostToDevice));
        srad_coefficients<<<grid, block>>>(d_J, d_n, d_s, d_w, d_e, d_c, a.rows, a.cols, q0sqr);
        srad_update<<<grid, block>>>(d_J, d_n, d_s, d_w, d_e, d_c, a.rows, a.cols, a.lambda);
        RD_CUDA_CHECK(cudaGetLastError());
        RD_CUDA_CHECK(cudaMemcpy(J, d_J, n * sizeof(float), cudaMemcpyDeviceToHost));
    }
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    srad_write(argv[9], &a, J);
    RD_CUDA_FREE(d_J, d_c, d_n, d_s, d_w, d_e);
    free(J);
    return 0;
}
