// Warp reductions under a guard on the warp's row, in blocks whose warps
// lie in one x row of the block, straddle two rows, or mix both; the
// result is written by one chosen lane (`lane == k`, k given at run time,
// possibly one no lane has) and by the lane whose masked id is 7. The row
// guard is decided from the first and last lane where the ids allow it and
// by every lane otherwise; each form must give the same answers. Values are
// small integers in doubles, so every sum is exact.
#include <cstdio>
#include <cstdlib>

#include "check.h"

#define FULL 0xffffffffu

// Row r sums in[32 * r .. 32 * r + 31]; out[2 * r] is written by lane k
// (BY_MASK false), out[2 * r + 1] by the lane with (t & 31) == 7 (true).
template <bool BY_MASK>
__global__ void rows(int n, int k, const double *in, double *out) {
    int t = threadIdx.y * blockDim.x + threadIdx.x;
    int gt = blockIdx.x * blockDim.x * blockDim.y + t;
    int row = gt / 32;
    int lane = t % 32;
    if (row < n) {
        double s = in[gt];
        for (int off = 16; off > 0; off /= 2) s += __shfl_down_sync(FULL, s, off);
        double total = __shfl_sync(FULL, s, 0);
        if (BY_MASK) {
            if ((t & 31) == 7) out[2 * row + 1] = total + 1000.0;
        } else {
            if (lane == k) out[2 * row] = total;
        }
    }
}

// cnt[r] counts the threads of row r whose threadIdx.x % 32 is k: one per
// warp where the warp lies in one x row of the block, two where a 16-wide
// block row puts two x runs in one warp.
__global__ void count(int n, int k, const double *in, int *cnt) {
    int t = threadIdx.y * blockDim.x + threadIdx.x;
    int gt = blockIdx.x * blockDim.x * blockDim.y + t;
    int row = gt / 32;
    if (row < n) {
        double s = in[gt];
        for (int off = 16; off > 0; off /= 2) s += __shfl_down_sync(FULL, s, off);
        if (threadIdx.x % 32 == (unsigned)k) atomicAdd(&cnt[row], 1);
    }
}

// Blocks whose size is not a multiple of 32 end in a partial warp; a
// shuffle from a lane the warp does not have returns the caller's value.
// out[warp] is lane 0's sum after the shuffle-down tree.
__global__ void warp_sums(const double *in, double *out) {
    int t = threadIdx.x;
    int gt = blockIdx.x * blockDim.x + t;
    double s = in[gt];
    for (int off = 16; off > 0; off /= 2) s += __shfl_down_sync(FULL, s, off);
    int warps = (blockDim.x + 31) / 32;
    if (t % 32 == 0) out[blockIdx.x * warps + t / 32] = s;
}

// Each lane reads the value of its row (gt / 32) and swaps it with its
// xor-1 neighbour: with 48-thread blocks a warp can hold two rows, so the
// row is not the same in every lane.
__global__ void row_loads(const double *rowval, double *out) {
    int gt = blockIdx.x * blockDim.x + threadIdx.x;
    int row = gt / 32;
    double v = rowval[row] + (double)(threadIdx.x % 32);
    out[gt] = __shfl_xor_sync(FULL, v, 1);
}

// Lane 0's value after the shuffle-down tree over `lanes` values.
static double tree(const double *v, int lanes) {
    double a[32];
    for (int l = 0; l < lanes; ++l) a[l] = v[l];
    for (int off = 16; off > 0; off /= 2) {
        double b[32];
        for (int l = 0; l < lanes; ++l) b[l] = a[l] + (l + off < lanes ? a[l + off] : a[l]);
        for (int l = 0; l < lanes; ++l) a[l] = b[l];
    }
    return a[0];
}

int main() {
    const int n = 40;  // rows; 32 threads each
    const int len = n * 32;
    double *hin = (double *)malloc(len * sizeof(double));
    for (int i = 0; i < len; ++i) hin[i] = (double)((i * 7) % 13);
    double *din, *dout;
    alloc_copy(&din, hin, len * sizeof(double));
    CHECK(cudaMalloc(&dout, 2 * n * sizeof(double)));
    double *hout = (double *)malloc(2 * n * sizeof(double));
    int *dcnt, *hcnt = (int *)malloc(n * sizeof(int));
    CHECK(cudaMalloc(&dcnt, n * sizeof(int)));
    // Block shapes: 64x1 (warps in one row), 16x4 (every warp spans two
    // rows), 48x2 (warps in one row and warps across rows alternate).
    const int shapes[3][2] = {{64, 1}, {16, 4}, {48, 2}};
    const int ks[3] = {0, 5, 40};  // 40: no lane has it
    int bad = 0;
    for (int s = 0; s < 3; ++s) {
        for (int q = 0; q < 3; ++q) {
            int k = ks[q];
            dim3 block(shapes[s][0], shapes[s][1]);
            int per = shapes[s][0] * shapes[s][1];
            int grid = (len + per - 1) / per;
            for (int i = 0; i < 2 * n; ++i) hout[i] = -1.0;
            CHECK(cudaMemcpy(dout, hout, 2 * n * sizeof(double), cudaMemcpyHostToDevice));
            rows<false><<<grid, block>>>(n, k, din, dout);
            CHECK(cudaGetLastError());
            rows<true><<<grid, block>>>(n, k, din, dout);
            copy_back(hout, dout, 2 * n * sizeof(double));
            CHECK(cudaMemset(dcnt, 0, n * sizeof(int)));
            count<<<grid, block>>>(n, k, din, dcnt);
            copy_back(hcnt, dcnt, n * sizeof(int));
            for (int r = 0; r < n; ++r) {
                int want = 0;
                for (int j = 0; j < 32; ++j) {
                    int x = ((32 * r + j) % per) % shapes[s][0];
                    if (x % 32 == k) ++want;
                }
                if (hcnt[r] != want) {
                    if (bad < 5)
                        printf("block %dx%d k %d row %d: %d threads passed, want %d\n", shapes[s][0],
                               shapes[s][1], k, r, hcnt[r], want);
                    ++bad;
                }
            }
            for (int r = 0; r < n; ++r) {
                double sum = 0.0;
                for (int j = 0; j < 32; ++j) sum += hin[32 * r + j];
                double want0 = k < 32 ? sum : -1.0;
                double want1 = sum + 1000.0;
                if (hout[2 * r] != want0 || hout[2 * r + 1] != want1) {
                    if (bad < 5)
                        printf("block %dx%d k %d row %d: got %g %g want %g %g\n", shapes[s][0],
                               shapes[s][1], k, r, hout[2 * r], hout[2 * r + 1], want0, want1);
                    ++bad;
                }
            }
        }
    }
    {
        const int bs = 48, grid = len / bs;
        double *dres, *hres = (double *)malloc(len * sizeof(double));
        CHECK(cudaMalloc(&dres, len * sizeof(double)));
        row_loads<<<grid, bs>>>(din, dres);
        copy_back(hres, dres, len * sizeof(double));
        for (int gt = 0; gt < grid * bs; ++gt) {
            int t = gt % bs, partner = t ^ 1;  // stays in the same warp
            int pg = gt - t + partner;
            double want = hin[pg / 32] + (double)(partner % 32);
            if (hres[gt] != want) {
                if (bad < 5) printf("row_loads thread %d: got %g want %g\n", gt, hres[gt], want);
                ++bad;
            }
        }
        CHECK(cudaFree(dres));
        free(hres);
    }
    const int sizes[3] = {40, 72, 96};
    for (int q = 0; q < 3; ++q) {
        int bs = sizes[q], warps = (bs + 31) / 32, grid = len / bs;
        double *dsum, *hsum = (double *)malloc(grid * warps * sizeof(double));
        CHECK(cudaMalloc(&dsum, grid * warps * sizeof(double)));
        warp_sums<<<grid, bs>>>(din, dsum);
        copy_back(hsum, dsum, grid * warps * sizeof(double));
        for (int b = 0; b < grid; ++b)
            for (int w = 0; w < warps; ++w) {
                int lanes = bs - 32 * w < 32 ? bs - 32 * w : 32;
                double want = tree(hin + b * bs + 32 * w, lanes);
                if (hsum[b * warps + w] != want) {
                    if (bad < 5)
                        printf("block size %d block %d warp %d: got %g want %g\n", bs, b, w,
                               hsum[b * warps + w], want);
                    ++bad;
                }
            }
        CHECK(cudaFree(dsum));
        free(hsum);
    }
    return report("warp_block_shapes", bad);
}
