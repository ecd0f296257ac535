/* dwt2d: forward 2-D discrete wavelet transform (reversible 5/3) of the
 * three components of an RGB image, several levels.  A first kernel splits
 * the interleaved pixels into level-shifted components, staging each
 * block's bytes in shared memory.  The transform kernel gives each block a
 * 32x32 tile of the current band plus a two-sample halo (loaded with
 * symmetric extension) in shared memory; the lifting steps (horizontal
 * predict, horizontal update, vertical predict, vertical update) run in
 * place on the tile, separated by barriers, and the tile's samples are
 * written to their subbands.  Every further level transforms the previous
 * level's low-pass band, writing to a scratch buffer that is copied back,
 * as Rodinia's does. */
#include <cuda_runtime.h>
#include "dwt2d_common.h"

#define COPY_THREADS 256
#define TILE 32
#define HALO 2
#define SPAN (TILE + 2 * HALO)
#define ROWS_PER_PASS 8

__global__ void copy_src_to_components(const unsigned char *src, int *r, int *g, int *b, int n) {
    __shared__ unsigned char chunk[COPY_THREADS * 3];
    int base = blockIdx.x * COPY_THREADS;
    int tx = threadIdx.x;
    for (int i = tx; i < COPY_THREADS * 3; i += COPY_THREADS)
        if (3 * base + i < 3 * n) chunk[i] = src[3 * (size_t)base + i];
    __syncthreads();
    int p = base + tx;
    if (p < n) {
        r[p] = (int)chunk[3 * tx] - 128;
        g[p] = (int)chunk[3 * tx + 1] - 128;
        b[p] = (int)chunk[3 * tx + 2] - 128;
    }
}

/* One level on a w x h band stored with row stride `stride`. */
__global__ void fdwt53(const int *in, int *out, int w, int h, int stride) {
    __shared__ int tile[SPAN][SPAN + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x0 = blockIdx.x * TILE - HALO, y0 = blockIdx.y * TILE - HALO;

    for (int r = ty; r < SPAN; r += ROWS_PER_PASS)
        for (int c = tx; c < SPAN; c += TILE)
            tile[r][c] = in[(size_t)dw_mirror(y0 + r, h) * stride + dw_mirror(x0 + c, w)];
    __syncthreads();

    /* Horizontal predict: odd columns lose the mean of their neighbours. */
    for (int r = ty; r < SPAN; r += ROWS_PER_PASS)
        for (int c = 1 + 2 * tx; c < SPAN - 1; c += 2 * TILE)
            tile[r][c] -= (tile[r][c - 1] + tile[r][c + 1]) >> 1;
    __syncthreads();
    /* Horizontal update: even columns gain a quarter of their details. */
    for (int r = ty; r < SPAN; r += ROWS_PER_PASS)
        for (int c = 2 + 2 * tx; c < SPAN - 2; c += 2 * TILE)
            tile[r][c] += (tile[r][c - 1] + tile[r][c + 1] + 2) >> 2;
    __syncthreads();
    /* The same down the columns. */
    for (int r = 1 + 2 * ty; r < SPAN - 1; r += 2 * ROWS_PER_PASS)
        for (int c = tx; c < SPAN; c += TILE) tile[r][c] -= (tile[r - 1][c] + tile[r + 1][c]) >> 1;
    __syncthreads();
    for (int r = 2 + 2 * ty; r < SPAN - 2; r += 2 * ROWS_PER_PASS)
        for (int c = tx; c < SPAN; c += TILE)
            tile[r][c] += (tile[r - 1][c] + tile[r + 1][c] + 2) >> 2;
    __syncthreads();

    int half_w = (w + 1) / 2, half_h = (h + 1) / 2;
    int x = x0 + HALO + tx;
    int ox = (x & 1) ? half_w + x / 2 : x / 2;
    for (int r = HALO + ty; r < HALO + TILE; r += ROWS_PER_PASS) {
        int y = y0 + r;
        if (x < w && y < h) {
            int oy = (y & 1) ? half_h + y / 2 : y / 2;
            out[(size_t)oy * stride + ox] = tile[r][HALO + tx];
        }
    }
}

/* Copies a w x h band (row stride `stride`) from `from` to `to`. */
__global__ void copy_band(const int *from, int *to, int w, int h, int stride) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) to[(size_t)y * stride + x] = from[(size_t)y * stride + x];
}

int main(int argc, char **argv) {
    int w, h, levels;
    dw_args(argc, argv, &w, &h, &levels);
    size_t n = (size_t)w * h;
    unsigned char *rgb = (unsigned char *)malloc(3 * n);
    int *result[3];
    for (int c = 0; c < 3; c++) result[c] = (int *)malloc(n * sizeof(int));
    dw_generate(w, h, rgb);

    unsigned char *d_rgb;
    int *d_comp[3], *d_out[3], *d_tmp;
    RD_CUDA_CHECK(cudaMalloc(&d_rgb, 3 * n));
    for (int c = 0; c < 3; c++) {
        RD_CUDA_CHECK(cudaMalloc(&d_comp[c], n * sizeof(int)));
        RD_CUDA_CHECK(cudaMalloc(&d_out[c], n * sizeof(int)));
    }
    RD_CUDA_CHECK(cudaMalloc(&d_tmp, n * sizeof(int)));

    double t0 = rd_now();
    RD_CUDA_CHECK(cudaMemcpy(d_rgb, rgb, 3 * n, cudaMemcpyHostToDevice));
    copy_src_to_components<<<(int)((n + COPY_THREADS - 1) / COPY_THREADS), COPY_THREADS>>>(
        d_rgb, d_comp[0], d_comp[1], d_comp[2], (int)n);
    RD_CUDA_CHECK(cudaGetLastError());
    dim3 block(TILE, ROWS_PER_PASS);
    for (int c = 0; c < 3; c++) {
        int cw = w, ch = h;
        for (int l = 0; l < levels; l++) {
            dim3 grid((cw + TILE - 1) / TILE, (ch + TILE - 1) / TILE);
            if (l == 0) {
                fdwt53<<<grid, block>>>(d_comp[c], d_out[c], cw, ch, w);
            } else {
                fdwt53<<<grid, block>>>(d_out[c], d_tmp, cw, ch, w);
                dim3 cgrid((cw + 15) / 16, (ch + 15) / 16);
                copy_band<<<cgrid, dim3(16, 16)>>>(d_tmp, d_out[c], cw, ch, w);
            }
            RD_CUDA_CHECK(cudaGetLastError());
            cw = (cw + 1) / 2;
            ch = (ch + 1) / 2;
        }
        RD_CUDA_CHECK(cudaMemcpy(result[c], d_out[c], n * sizeof(int), cudaMemcpyDeviceToHost));
    }
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    dw_write(argv[4], w, h, result);
    cudaFree(d_rgb);
    cudaFree(d_tmp);
    for (int c = 0; c < 3; c++) {
        cudaFree(d_comp[c]);
        cudaFree(d_out[c]);
        free(result[c]);
    }
    free(rgb);
    return 0;
}
