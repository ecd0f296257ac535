/* dwt2d: forward 2-D discrete wavelet transform (reversible 5/3 or
 * irreversible 9/7) of the three components of an RGB image, several
 * levels.  A first kernel splits
 * the interleaved pixels into level-shifted components, staging each
 * block's bytes in shared memory.  The transform kernel gives each block a
 * 32x32 tile of the current band plus a two-sample halo (loaded with
 * symmetric extension) in shared memory; the lifting steps (horizontal
 * predict, horizontal update, vertical predict, vertical update) run in
 * place on the tile, separated by barriers, and the tile's samples are
 * written to their subbands.  The 9/7 kernel does the same with four
 * lifting steps per direction, a four-sample halo, and the bands' scaling.  Every further level transforms the previous
 * level's low-pass band, writing to a scratch buffer that is copied back,
 * as Rodinia's does. */
#include <cuda_runtime.h>
#include "dwt2d_common.h"

#define COPY_THREADS 256
#define TILE 32
#define HALO 2
#define SPAN (TILE + 2 * HALO)
#define ROWS_PER_PASS 8
#define HALO97 4
#define SPAN97 (TILE + 2 * HALO97)

template <typename T>
__global__ void copy_src_to_components(const unsigned char *src, T *r, T *g, T *b, int n) {
    __shared__ unsigned char chunk[COPY_THREADS * 3];
    int base = blockIdx.x * COPY_THREADS;
    int tx = threadIdx.x;
    for (int i = tx; i < COPY_THREADS * 3; i += COPY_THREADS)
        if (3 * base + i < 3 * n) chunk[i] = src[3 * (size_t)base + i];
    __syncthreads();
    int p = base + tx;
    if (p < n) {
        r[p] = (T)((int)chunk[3 * tx] - 128);
        g[p] = (T)((int)chunk[3 * tx + 1] - 128);
        b[p] = (T)((int)chunk[3 * tx + 2] - 128);
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

/* One 9/7 level: lifting step k (0-3) updates the samples of parity
 * k + 1 from their neighbours, on a range that shrinks by one sample per
 * step, so the halo of four covers the tile's outputs. */
__global__ void fdwt97(const float *in, float *out, int w, int h, int stride) {
    __shared__ float tile[SPAN97][SPAN97 + 1];
    const float coef[4] = {DW_ALPHA, DW_BETA, DW_GAMMA, DW_DELTA};
    int tx = threadIdx.x, ty = threadIdx.y;
    int x0 = blockIdx.x * TILE - HALO97, y0 = blockIdx.y * TILE - HALO97;

    for (int r = ty; r < SPAN97; r += ROWS_PER_PASS)
        for (int c = tx; c < SPAN97; c += TILE)
            tile[r][c] = in[(size_t)dw_mirror(y0 + r, h) * stride + dw_mirror(x0 + c, w)];
    __syncthreads();
    for (int k = 0; k < 4; k++) {
        for (int r = ty; r < SPAN97; r += ROWS_PER_PASS)
            for (int c = k + 1 + 2 * tx; c < SPAN97 - 1 - k; c += 2 * TILE)
                tile[r][c] += coef[k] * (tile[r][c - 1] + tile[r][c + 1]);
        __syncthreads();
    }
    for (int r = ty; r < SPAN97; r += ROWS_PER_PASS)
        for (int c = tx; c < SPAN97; c += TILE) tile[r][c] *= (c & 1) ? DW_K : 1.0f / DW_K;
    __syncthreads();
    for (int k = 0; k < 4; k++) {
        for (int r = k + 1 + 2 * ty; r < SPAN97 - 1 - k; r += 2 * ROWS_PER_PASS)
            for (int c = tx; c < SPAN97; c += TILE)
                tile[r][c] += coef[k] * (tile[r - 1][c] + tile[r + 1][c]);
        __syncthreads();
    }
    for (int r = ty; r < SPAN97; r += ROWS_PER_PASS)
        for (int c = tx; c < SPAN97; c += TILE) tile[r][c] *= (r & 1) ? DW_K : 1.0f / DW_K;
    __syncthreads();

    int half_w = (w + 1) / 2, half_h = (h + 1) / 2;
    int x = x0 + HALO97 + tx;
    int ox = (x & 1) ? half_w + x / 2 : x / 2;
    for (int r = HALO97 + ty; r < HALO97 + TILE; r += ROWS_PER_PASS) {
        int y = y0 + r;
        if (x < w && y < h) {
            int oy = (y & 1) ? half_h + y / 2 : y / 2;
            out[(size_t)oy * stride + ox] = tile[r][HALO97 + tx];
        }
    }
}

/* Copies a w x h band (row stride `stride`) from `from` to `to`. */
template <typename T>
__global__ void copy_band(const T *from, T *to, int w, int h, int stride) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) to[(size_t)y * stride + x] = from[(size_t)y * stride + x];
}

/* Splits the image and transforms every component: T is int for 5/3,
 * float for 9/7. */
template <typename T>
static void transform(const unsigned char *rgb, int w, int h, int levels, int t97, T *result[3]) {
    size_t n = (size_t)w * h;
    unsigned char *d_rgb;
    T *d_comp[3], *d_out[3], *d_tmp;
    RD_CUDA_CHECK(cudaMalloc(&d_rgb, 3 * n));
    for (int c = 0; c < 3; c++) {
        RD_CUDA_CHECK(cudaMalloc(&d_comp[c], n * sizeof(T)));
        RD_CUDA_CHECK(cudaMalloc(&d_out[c], n * sizeof(T)));
    }
    RD_CUDA_CHECK(cudaMalloc(&d_tmp, n * sizeof(T)));

    double t0 = rd_now();
    RD_CUDA_CHECK(cudaMemcpy(d_rgb, rgb, 3 * n, cudaMemcpyHostToDevice));
    copy_src_to_components<T><<<(int)((n + COPY_THREADS - 1) / COPY_THREADS), COPY_THREADS>>>(
        d_rgb, d_comp[0], d_comp[1], d_comp[2], (int)n);
    RD_CUDA_CHECK(cudaGetLastError());
    dim3 block(TILE, ROWS_PER_PASS);
    for (int c = 0; c < 3; c++) {
        int cw = w, ch = h;
        for (int l = 0; l < levels; l++) {
            dim3 grid((cw + TILE - 1) / TILE, (ch + TILE - 1) / TILE);
            const T *from = l == 0 ? d_comp[c] : d_out[c];
            T *to = l == 0 ? d_out[c] : d_tmp;
            if (t97)
                fdwt97<<<grid, block>>>((const float *)from, (float *)to, cw, ch, w);
            else
                fdwt53<<<grid, block>>>((const int *)from, (int *)to, cw, ch, w);
            if (l > 0) {
                dim3 cgrid((cw + 15) / 16, (ch + 15) / 16);
                copy_band<T><<<cgrid, dim3(16, 16)>>>(d_tmp, d_out[c], cw, ch, w);
            }
            RD_CUDA_CHECK(cudaGetLastError());
            cw = (cw + 1) / 2;
            ch = (ch + 1) / 2;
        }
        RD_CUDA_CHECK(cudaMemcpy(result[c], d_out[c], n * sizeof(T), cudaMemcpyDeviceToHost));
    }
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    RD_CUDA_FREE(d_rgb, d_tmp);
    for (int c = 0; c < 3; c++) {
        RD_CUDA_FREE(d_comp[c], d_out[c]);
    }
}

int main(int argc, char **argv) {
    int w, h, levels, t97;
    dw_args(argc, argv, &w, &h, &levels, &t97);
    size_t n = (size_t)w * h;
    unsigned char *rgb = (unsigned char *)malloc(3 * n);
    dw_generate(w, h, rgb);
    if (t97) {
        float *result[3];
        for (int c = 0; c < 3; c++) result[c] = (float *)malloc(n * sizeof(float));
        transform<float>(rgb, w, h, levels, t97, result);
        dw_write_f(argv[5], w, h, result);
        for (int c = 0; c < 3; c++) free(result[c]);
    } else {
        int *result[3];
        for (int c = 0; c < 3; c++) result[c] = (int *)malloc(n * sizeof(int));
        transform<int>(rgb, w, h, levels, t97, result);
        dw_write(argv[5], w, h, result);
        for (int c = 0; c < 3; c++) free(result[c]);
    }
    free(rgb);
    return 0;
}
