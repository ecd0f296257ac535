/* leukocyte: detects white blood cells in the first frame and tracks them
 * through the following ones, as Rodinia does.
 *
 * Detection: the host computes the image gradients; the GICOV kernel (one
 * thread per pixel, gradients read through textures, the sample circles'
 * sines, cosines and offsets in constant memory) scores circles of seven
 * radii around every pixel; the dilation kernel (image through a texture,
 * the disk in constant memory) takes the maximum over a disk; the host
 * keeps the local maxima above a threshold.
 *
 * Tracking: per frame the host cuts a sub-image around every cell, and the
 * MGVF kernel (one block per cell, the field and the start image in shared
 * memory) iterates the motion gradient vector flow update until the mean
 * change, reduced with a shared tree each iteration, falls below the
 * tolerance; the host moves each cell to the centroid of the strong part
 * of its field.  Rodinia then fits an active contour to the field on the
 * host; this version only re-centres the cell. */
#include <cuda_runtime.h>
#include <string.h>
#include "leukocyte_common.h"

__constant__ float c_sin[LK_NPOINTS];
__constant__ float c_cos[LK_NPOINTS];
__constant__ int c_tx[LK_NCIRCLES * LK_NPOINTS];
__constant__ int c_ty[LK_NCIRCLES * LK_NPOINTS];
__constant__ float c_strel[LK_STREL * LK_STREL];

__global__ void gicov_kernel(cudaTextureObject_t t_gx, cudaTextureObject_t t_gy, float *gicov,
                             int rows, int cols) {
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= rows * cols) return;
    int y = p / cols, x = p % cols;
    float best = 0.0f;
    if (y >= LK_MARGIN && y < rows - LK_MARGIN && x >= LK_MARGIN && x < cols - LK_MARGIN) {
        float g[LK_NPOINTS];
        for (int k = 0; k < LK_NCIRCLES; k++) {
            for (int n = 0; n < LK_NPOINTS; n++) {
                int q = (y + c_ty[k * LK_NPOINTS + n]) * cols + x + c_tx[k * LK_NPOINTS + n];
                g[n] = tex1Dfetch<float>(t_gx, q) * c_cos[n] + tex1Dfetch<float>(t_gy, q) * c_sin[n];
            }
            float s = lk_score(g, LK_NPOINTS);
            if (s > best) best = s;
        }
    }
    gicov[p] = best;
}

__global__ void dilate_kernel(cudaTextureObject_t t_img, float *out, int rows, int cols) {
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= rows * cols) return;
    int y = p / cols, x = p % cols;
    float m = 0.0f;
    for (int i = 0; i < LK_STREL; i++) {
        int yy = y + i - LK_STREL_R;
        if (yy < 0 || yy >= rows) continue;
        for (int j = 0; j < LK_STREL; j++) {
            int xx = x + j - LK_STREL_R;
            if (xx < 0 || xx >= cols || c_strel[i * LK_STREL + j] == 0.0f) continue;
            float v = tex1Dfetch<float>(t_img, yy * cols + xx);
            if (v > m) m = v;
        }
    }
    out[p] = m;
}

__global__ void mgvf_kernel(const float *start, float *field, int *iterations) {
    __shared__ float v[LK_SUB * LK_SUB];
    __shared__ float img[LK_SUB * LK_SUB];
    __shared__ float red[LK_THREADS];
    const int n = LK_SUB * LK_SUB;
    int cell = blockIdx.x, tx = threadIdx.x;
    const float *s = start + (size_t)cell * n;
    for (int i = tx; i < n; i += LK_THREADS) {
        img[i] = s[i];
        v[i] = s[i];
    }
    __syncthreads();
    int iter = 0;
    while (1) {
        float nv[LK_PER_THREAD];
        float change = 0.0f;
        for (int k = 0; k < LK_PER_THREAD; k++) {
            int i = tx + k * LK_THREADS;
            if (i < n) {
                nv[k] = lk_mgvf_new(v, img, i / LK_SUB, i % LK_SUB);
                change += fabsf(nv[k] - v[i]);
            }
        }
        __syncthreads();
        for (int k = 0; k < LK_PER_THREAD; k++) {
            int i = tx + k * LK_THREADS;
            if (i < n) v[i] = nv[k];
        }
        red[tx] = change;
        __syncthreads();
        for (int st = LK_THREADS / 2; st > 0; st >>= 1) {
            if (tx < st) red[tx] += red[tx + st];
            __syncthreads();
        }
        float total = red[0];
        iter++;
        __syncthreads();
        if (total / (float)n < LK_TOLERANCE || iter >= LK_MAX_ITER) break;
    }
    for (int i = tx; i < n; i += LK_THREADS) field[(size_t)cell * n + i] = v[i];
    if (tx == 0) iterations[cell] = iter;
}

static cudaTextureObject_t float_texture(float *ptr, size_t count) {
    return rd_linear_texture(ptr, count * sizeof(float), cudaCreateChannelDesc<float>());
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

    float *d_gx, *d_gy, *d_gicov, *d_dilated, *d_starts, *d_fields;
    int *d_iters;
    RD_CUDA_CHECK(cudaMalloc(&d_gx, npx * sizeof(float)));
    RD_CUDA_CHECK(cudaMalloc(&d_gy, npx * sizeof(float)));
    RD_CUDA_CHECK(cudaMalloc(&d_gicov, npx * sizeof(float)));
    RD_CUDA_CHECK(cudaMalloc(&d_dilated, npx * sizeof(float)));
    RD_CUDA_CHECK(cudaMalloc(&d_starts, (size_t)LK_MAX_CELLS * sub * sizeof(float)));
    RD_CUDA_CHECK(cudaMalloc(&d_fields, (size_t)LK_MAX_CELLS * sub * sizeof(float)));
    RD_CUDA_CHECK(cudaMalloc(&d_iters, sizeof iters));

    double t0 = rd_now();
    lk_gradient(video, rows, cols, gx, gy);
    RD_CUDA_CHECK(cudaMemcpy(d_gx, gx, npx * sizeof(float), cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_gy, gy, npx * sizeof(float), cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpyToSymbol(c_sin, sn, sizeof sn));
    RD_CUDA_CHECK(cudaMemcpyToSymbol(c_cos, cs, sizeof cs));
    RD_CUDA_CHECK(cudaMemcpyToSymbol(c_tx, tx, sizeof tx));
    RD_CUDA_CHECK(cudaMemcpyToSymbol(c_ty, ty, sizeof ty));
    RD_CUDA_CHECK(cudaMemcpyToSymbol(c_strel, strel, sizeof strel));
    cudaTextureObject_t t_gx = float_texture(d_gx, npx), t_gy = float_texture(d_gy, npx);
    cudaTextureObject_t t_gicov = float_texture(d_gicov, npx);
    int blocks = (int)((npx + LK_THREADS - 1) / LK_THREADS);
    gicov_kernel<<<blocks, LK_THREADS>>>(t_gx, t_gy, d_gicov, rows, cols);
    dilate_kernel<<<blocks, LK_THREADS>>>(t_gicov, d_dilated, rows, cols);
    RD_CUDA_CHECK(cudaGetLastError());
    RD_CUDA_CHECK(cudaMemcpy(gicov, d_gicov, npx * sizeof(float), cudaMemcpyDeviceToHost));
    RD_CUDA_CHECK(cudaMemcpy(dilated, d_dilated, npx * sizeof(float), cudaMemcpyDeviceToHost));
    int ncells = lk_pick(gicov, dilated, rows, cols, cy, cx);
    memcpy(cy0, cy, sizeof cy);
    memcpy(cx0, cx, sizeof cx);

    for (int f = 1; f < frames; f++) {
        const float *img = video + npx * f;
        for (int k = 0; k < ncells; k++)
            lk_subimage(img, rows, cols, cy[k], cx[k], starts + (size_t)k * sub);
        if (ncells > 0) {
            RD_CUDA_CHECK(cudaMemcpy(d_starts, starts, (size_t)ncells * sub * sizeof(float),
                                     cudaMemcpyHostToDevice));
            mgvf_kernel<<<ncells, LK_THREADS>>>(d_starts, d_fields, d_iters);
            RD_CUDA_CHECK(cudaGetLastError());
            RD_CUDA_CHECK(cudaMemcpy(fields, d_fields, (size_t)ncells * sub * sizeof(float),
                                     cudaMemcpyDeviceToHost));
            RD_CUDA_CHECK(cudaMemcpy(iters, d_iters, (size_t)ncells * sizeof(int),
                                     cudaMemcpyDeviceToHost));
        }
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
    cudaDestroyTextureObject(t_gx);
    cudaDestroyTextureObject(t_gy);
    cudaDestroyTextureObject(t_gicov);
    RD_CUDA_FREE(d_gx, d_gy, d_gicov, d_dilated, d_starts, d_fields, d_iters);
    RD_FREE(video, gx, gy, gicov, dilated, starts, fields, track, sums);
    return 0;
}
