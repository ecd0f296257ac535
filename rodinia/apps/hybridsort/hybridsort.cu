/* hybridsort: bucket sort into HS_DIVISIONS buckets, then a merge sort of
 * every bucket, as in Rodinia.
 *
 * Bucket phase: the pivots are fetched through a texture; `bucketcount`
 * (32-thread blocks, a shared histogram of every bucket per block) finds
 * each value's bucket by binary search and takes its place in the block's
 * share of the bucket with a shared-memory atomicAdd; `bucketprefixoffset`
 * turns the per-block counts into offsets (one thread per bucket); the
 * host lays the buckets out, each padded to a multiple of four, and puts
 * the layout in constant memory; `bucketsort` scatters the values.
 *
 * Merge phase (float4 vectors, a texture over the source buffer):
 * `mergesortfirst` sorts each vector, `mergesortpass` merges pairs of
 * sorted runs within every bucket (grid.y = bucket), doubling the run
 * length each pass, and `mergepack` drops the padding.  Rodinia binds
 * legacy texture references; current CUDA only has texture objects, which
 * this version uses. */
#include <cuda_runtime.h>
#include "hybridsort_common.h"

#define BUCKET_THREADS 32
#define MAX_BUCKET_BLOCKS 1024
#define MERGE_THREADS 256

__constant__ int start4[HS_DIVISIONS + 1];  /* bucket starts, in float4s (padded) */
__constant__ int final_start[HS_DIVISIONS]; /* bucket starts in the result */
__constant__ int null_elems[HS_DIVISIONS];  /* padding at each bucket's end */

__device__ int find_bucket(cudaTextureObject_t pivots, float v) {
    int lo = 0, hi = HS_DIVISIONS - 1; /* the answer is in [lo, hi] */
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (v < tex1Dfetch<float>(pivots, mid))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

__global__ void bucketcount(const float *input, int *indice, int *counts, int n,
                            cudaTextureObject_t pivots) {
    __shared__ int s_offset[HS_DIVISIONS];
    for (int b = threadIdx.x; b < HS_DIVISIONS; b += BUCKET_THREADS) s_offset[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * BUCKET_THREADS + threadIdx.x; i < n;
         i += gridDim.x * BUCKET_THREADS) {
        int b = find_bucket(pivots, input[i]);
        indice[i] = (atomicAdd(&s_offset[b], 1) << 10) | b;
    }
    __syncthreads();
    for (int b = threadIdx.x; b < HS_DIVISIONS; b += BUCKET_THREADS)
        counts[b * gridDim.x + blockIdx.x] = s_offset[b];
}

/* counts[b * blocks + k] becomes the number of bucket-b values in blocks
 * before k; sizes[b] the bucket's size. */
__global__ void bucketprefixoffset(int *counts, int *sizes, int blocks) {
    int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= HS_DIVISIONS) return;
    int sum = 0;
    for (int k = 0; k < blocks; k++) {
        int c = counts[b * blocks + k];
        counts[b * blocks + k] = sum;
        sum += c;
    }
    sizes[b] = sum;
}

__global__ void bucketsort(const float *input, const int *indice, const int *counts,
                           float *output, int n) {
    __shared__ int s_offset[HS_DIVISIONS];
    for (int b = threadIdx.x; b < HS_DIVISIONS; b += BUCKET_THREADS)
        s_offset[b] = 4 * start4[b] + counts[b * gridDim.x + blockIdx.x];
    __syncthreads();
    for (int i = blockIdx.x * BUCKET_THREADS + threadIdx.x; i < n;
         i += gridDim.x * BUCKET_THREADS) {
        int code = indice[i];
        output[s_offset[code & (HS_DIVISIONS - 1)] + (code >> 10)] = input[i];
    }
}

/* Fills each bucket's padding with FLT_MAX, which sorts last. */
__global__ void bucketpad(float *output) {
    int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= HS_DIVISIONS) return;
    for (int k = 0; k < null_elems[b]; k++) output[4 * start4[b + 1] - 1 - k] = FLT_MAX;
}

__device__ void order(float &a, float &b) {
    if (b < a) {
        float t = a;
        a = b;
        b = t;
    }
}

__global__ void mergesortfirst(cudaTextureObject_t src, float4 *result, int n4) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n4) return;
    float4 v = tex1Dfetch<float4>(src, i);
    order(v.x, v.y);
    order(v.z, v.w);
    order(v.x, v.z);
    order(v.y, v.w);
    order(v.y, v.z);
    result[i] = v;
}

__device__ float element(cudaTextureObject_t src, int i) {
    float4 v = tex1Dfetch<float4>(src, i >> 2);
    int k = i & 3;
    return k == 0 ? v.x : (k == 1 ? v.y : (k == 2 ? v.z : v.w));
}

/* Merges runs of `run` sorted elements pairwise within bucket blockIdx.y. */
__global__ void mergesortpass(cudaTextureObject_t src, float *result, int run) {
    int b = blockIdx.y;
    int base = 4 * start4[b], len = 4 * (start4[b + 1] - start4[b]);
    int a = (blockIdx.x * blockDim.x + threadIdx.x) * 2 * run;
    if (a >= len) return;
    int a_end = min(a + run, len), b_end = min(a + 2 * run, len);
    int i = a, j = a_end, o = a;
    float x = i < a_end ? element(src, base + i) : FLT_MAX;
    float y = j < b_end ? element(src, base + j) : FLT_MAX;
    while (i < a_end || j < b_end) {
        if (j >= b_end || (i < a_end && x <= y)) {
            result[base + o++] = x;
            i++;
            if (i < a_end) x = element(src, base + i);
        } else {
            result[base + o++] = y;
            j++;
            if (j < b_end) y = element(src, base + j);
        }
    }
}

__global__ void mergepack(const float *sorted, float *out) {
    int b = blockIdx.y;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int size = 4 * (start4[b + 1] - start4[b]) - null_elems[b];
    if (i < size) out[final_start[b] + i] = sorted[4 * start4[b] + i];
}

static cudaTextureObject_t make_texture(void *ptr, size_t bytes, cudaChannelFormatDesc desc) {
    return rd_linear_texture(ptr, bytes, desc);
}

int main(int argc, char **argv) {
    int n = hs_args(argc, argv);
    float *list = (float *)malloc((size_t)n * sizeof(float));
    float *sorted = (float *)malloc((size_t)n * sizeof(float));
    float pivots[HS_DIVISIONS];
    int sizes[HS_DIVISIONS], h_start4[HS_DIVISIONS + 1], h_final[HS_DIVISIONS],
        h_null[HS_DIVISIONS];
    hs_generate(n, list);

    int blocks = (n + BUCKET_THREADS - 1) / BUCKET_THREADS;
    if (blocks > MAX_BUCKET_BLOCKS) blocks = MAX_BUCKET_BLOCKS;
    size_t padded_max = (size_t)n + 3 * HS_DIVISIONS;
    float *d_input, *d_pivots, *d_buf[2], *d_out;
    int *d_indice, *d_counts, *d_sizes;
    RD_CUDA_CHECK(cudaMalloc(&d_input, (size_t)n * sizeof(float)));
    RD_CUDA_CHECK(cudaMalloc(&d_out, (size_t)n * sizeof(float)));
    RD_CUDA_CHECK(cudaMalloc(&d_pivots, sizeof pivots));
    RD_CUDA_CHECK(cudaMalloc(&d_buf[0], padded_max * sizeof(float)));
    RD_CUDA_CHECK(cudaMalloc(&d_buf[1], padded_max * sizeof(float)));
    RD_CUDA_CHECK(cudaMalloc(&d_indice, (size_t)n * sizeof(int)));
    RD_CUDA_CHECK(cudaMalloc(&d_counts, (size_t)HS_DIVISIONS * blocks * sizeof(int)));
    RD_CUDA_CHECK(cudaMalloc(&d_sizes, sizeof sizes));

    double t0 = rd_now();
    /* Rodinia finds the pivots on the host too, from a sample. */
    hs_pivots(n, list, pivots);
    RD_CUDA_CHECK(cudaMemcpy(d_input, list, (size_t)n * sizeof(float), cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_pivots, pivots, sizeof pivots, cudaMemcpyHostToDevice));
    cudaTextureObject_t t_pivots =
        make_texture(d_pivots, sizeof pivots, cudaCreateChannelDesc<float>());
    bucketcount<<<blocks, BUCKET_THREADS>>>(d_input, d_indice, d_counts, n, t_pivots);
    bucketprefixoffset<<<HS_DIVISIONS / 32, 32>>>(d_counts, d_sizes, blocks);
    RD_CUDA_CHECK(cudaGetLastError());
    RD_CUDA_CHECK(cudaMemcpy(sizes, d_sizes, sizeof sizes, cudaMemcpyDeviceToHost));

    int max4 = 0;
    h_start4[0] = 0;
    for (int b = 0, fin = 0; b < HS_DIVISIONS; b++) {
        int len4 = (sizes[b] + 3) / 4;
        h_start4[b + 1] = h_start4[b] + len4;
        h_null[b] = 4 * len4 - sizes[b];
        h_final[b] = fin;
        fin += sizes[b];
        if (len4 > max4) max4 = len4;
    }
    int n4 = h_start4[HS_DIVISIONS];
    RD_CUDA_CHECK(cudaMemcpyToSymbol(start4, h_start4, sizeof h_start4));
    RD_CUDA_CHECK(cudaMemcpyToSymbol(final_start, h_final, sizeof h_final));
    RD_CUDA_CHECK(cudaMemcpyToSymbol(null_elems, h_null, sizeof h_null));
    bucketsort<<<blocks, BUCKET_THREADS>>>(d_input, d_indice, d_counts, d_buf[0], n);
    bucketpad<<<HS_DIVISIONS / 32, 32>>>(d_buf[0]);

    cudaTextureObject_t t_buf[2];
    for (int k = 0; k < 2; k++)
        t_buf[k] = make_texture(d_buf[k], (size_t)n4 * sizeof(float4),
                                cudaCreateChannelDesc<float4>());
    mergesortfirst<<<(n4 + MERGE_THREADS - 1) / MERGE_THREADS, MERGE_THREADS>>>(
        t_buf[0], (float4 *)d_buf[1], n4);
    int cur = 1;
    for (int run = 4; run < 4 * max4; run *= 2) {
        int pairs = (4 * max4 + 2 * run - 1) / (2 * run);
        dim3 grid((pairs + MERGE_THREADS - 1) / MERGE_THREADS, HS_DIVISIONS);
        mergesortpass<<<grid, MERGE_THREADS>>>(t_buf[cur], d_buf[1 - cur], run);
        cur = 1 - cur;
    }
    dim3 pgrid((4 * max4 + MERGE_THREADS - 1) / MERGE_THREADS, HS_DIVISIONS);
    mergepack<<<pgrid, MERGE_THREADS>>>(d_buf[cur], d_out);
    RD_CUDA_CHECK(cudaGetLastError());
    RD_CUDA_CHECK(cudaMemcpy(sorted, d_out, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost));
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    hs_write(argv[2], n, sorted);
    cudaDestroyTextureObject(t_pivots);
    cudaDestroyTextureObject(t_buf[0]);
    cudaDestroyTextureObject(t_buf[1]);
    RD_CUDA_FREE(d_input, d_out, d_pivots, d_buf[0], d_buf[1], d_indice, d_counts, d_sizes);
    RD_FREE(list, sorted);
    return 0;
}
