// corpus: runtime-api
// Launches as programs make them: cudaLaunchKernel with an argument array
// (scalars, a pointer, a struct by value), on the legacy stream and on a
// user stream; dynamic shared memory of several sizes, including above
// 48 KiB after cudaFuncSetAttribute; 2-D and 3-D grids and blocks checked
// against every thread's ids; cudaFuncGetAttributes; and the occupancy
// calculators cudaOccupancyMaxActiveBlocksPerMultiprocessor and
// cudaOccupancyMaxPotentialBlockSize used to size a launch.
#include <cstdio>
#include <cstdlib>

#include "expect.h"

struct Affine {
    int mul;
    int add;
    short shift;
};

__global__ void affine(int *out, const int *in, Affine f, long long bias, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = ((in[i] * f.mul + f.add) << f.shift) + (int)bias;
}

// Each block reverses its slice through dynamic shared memory of
// `blockDim.x * per_thread` ints, using all of it.
__global__ void reverse_dynamic(const int *in, int *out, int per_thread) {
    extern __shared__ int buf[];
    int base = blockIdx.x * blockDim.x * per_thread;
    int len = blockDim.x * per_thread;
    for (int k = threadIdx.x; k < len; k += blockDim.x) buf[k] = in[base + k];
    __syncthreads();
    for (int k = threadIdx.x; k < len; k += blockDim.x) out[base + k] = buf[len - 1 - k];
}

// Writes a code of (block, thread) ids at the thread's linear global index.
__global__ void ids3d(unsigned *out) {
    unsigned bx = blockIdx.x, by = blockIdx.y, bz = blockIdx.z;
    unsigned tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
    unsigned x = bx * blockDim.x + tx;
    unsigned y = by * blockDim.y + ty;
    unsigned z = bz * blockDim.z + tz;
    unsigned w = gridDim.x * blockDim.x, h = gridDim.y * blockDim.y;
    out[(z * h + y) * w + x] = (x << 20) | (y << 10) | z;
}

__global__ void with_static_shared(int *out) {
    __shared__ int tile[256];
    tile[threadIdx.x] = threadIdx.x * 3;
    __syncthreads();
    out[threadIdx.x] = tile[255 - threadIdx.x];
}

int main() {
    // cudaLaunchKernel with an argument array.
    const int n = 1000;
    int hin[n], hout[n];
    for (int i = 0; i < n; ++i) hin[i] = i - 300;
    int *in, *out;
    CHECK(cudaMalloc(&in, n * sizeof(int)));
    CHECK(cudaMalloc(&out, n * sizeof(int)));
    CHECK(cudaMemcpy(in, hin, sizeof(hin), cudaMemcpyHostToDevice));
    Affine f = {3, -7, 2};
    long long bias = 1000;
    int count = n;
    void *args[] = {&out, &in, &f, &bias, &count};
    CHECK(cudaLaunchKernel((const void *)affine, dim3((n + 127) / 128), dim3(128), args, 0, 0));
    CHECK(cudaMemcpy(hout, out, sizeof(hout), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
        if (hout[i] != ((hin[i] * 3 - 7) << 2) + 1000) {
            if (bad < 5) printf("cudaLaunchKernel %d: %d\n", i, hout[i]);
            ++bad;
        }
    // The template form, on a stream, with different values.
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    f.mul = -1;
    f.shift = 0;
    bias = -5;
    CHECK(cudaLaunchKernel(affine, dim3(8), dim3(125), args, 0, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemcpy(hout, out, sizeof(hout), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
        if (hout[i] != -hin[i] - 7 - 5) {
            if (bad < 5) printf("cudaLaunchKernel<> %d: %d\n", i, hout[i]);
            ++bad;
        }

    // Dynamic shared memory of several sizes, up to 96 KiB with the opt-in.
    const int blocks = 4, threads = 64, max_per = 384;  // 384 * 64 * 4 = 96 KiB
    const int total = blocks * threads * max_per;
    int *big_in, *big_out;
    int *hbig = (int *)malloc(total * sizeof(int));
    int *hback = (int *)malloc(total * sizeof(int));
    for (int i = 0; i < total; ++i) hbig[i] = i * 7 + 1;
    alloc_copy(&big_in, hbig, total * sizeof(int));
    CHECK(cudaMalloc(&big_out, total * sizeof(int)));
    CHECK(cudaFuncSetAttribute(reverse_dynamic, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               threads * max_per * (int)sizeof(int)));
    int sizes[] = {1, 16, 100, max_per};
    for (int per : sizes) {
        size_t shared = (size_t)threads * per * sizeof(int);
        reverse_dynamic<<<blocks, threads, shared>>>(big_in, big_out, per);
        CHECK(cudaGetLastError());
        int len = threads * per;
        CHECK(cudaMemcpy(hback, big_out, (size_t)blocks * len * sizeof(int), cudaMemcpyDeviceToHost));
        for (int b = 0; b < blocks; ++b)
            for (int k = 0; k < len; ++k)
                if (hback[b * len + k] != hbig[b * len + len - 1 - k]) {
                    if (bad < 5) printf("dynamic %d: block %d k %d\n", per, b, k);
                    ++bad;
                }
    }
    cudaFuncAttributes fa;
    CHECK(cudaFuncGetAttributes(&fa, reverse_dynamic));
    EXPECT(fa.maxDynamicSharedSizeBytes == threads * max_per * (int)sizeof(int));
    EXPECT(fa.maxThreadsPerBlock >= 1 && fa.maxThreadsPerBlock <= 1024);
    CHECK(cudaFuncGetAttributes(&fa, with_static_shared));
    EXPECT(fa.sharedSizeBytes >= 256 * sizeof(int));
    EXPECT(fa.maxThreadsPerBlock == 1024);

    // 2-D and 3-D grids of 2-D and 3-D blocks.
    dim3 shapes[][2] = {
        {dim3(3, 5), dim3(16, 4)},
        {dim3(2, 3, 4), dim3(4, 2, 8)},
        {dim3(1, 1, 7), dim3(2, 3, 5)},
        {dim3(5, 1, 1), dim3(1, 1, 64)},
    };
    for (auto &shape : shapes) {
        dim3 g = shape[0], b = shape[1];
        unsigned w = g.x * b.x, h = g.y * b.y, d = g.z * b.z;
        unsigned *ids;
        CHECK(cudaMalloc(&ids, w * h * d * sizeof(unsigned)));
        CHECK(cudaMemset(ids, 0xff, w * h * d * sizeof(unsigned)));
        ids3d<<<g, b>>>(ids);
        CHECK(cudaGetLastError());
        unsigned *hids = (unsigned *)malloc(w * h * d * sizeof(unsigned));
        CHECK(cudaMemcpy(hids, ids, w * h * d * sizeof(unsigned), cudaMemcpyDeviceToHost));
        for (unsigned z = 0; z < d; ++z)
            for (unsigned y = 0; y < h; ++y)
                for (unsigned x = 0; x < w; ++x)
                    if (hids[(z * h + y) * w + x] != ((x << 20) | (y << 10) | z)) {
                        if (bad < 5) printf("grid (%u,%u,%u) block (%u,%u,%u): (%u,%u,%u)\n",
                                            g.x, g.y, g.z, b.x, b.y, b.z, x, y, z);
                        ++bad;
                    }
        free(hids);
        CHECK(cudaFree(ids));
    }

    // Occupancy: at least one block of a launchable size fits, none of an
    // impossible one; the suggested block size launches and covers the data.
    int active = -1;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&active, affine, 128, 0));
    EXPECT(active >= 1);
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&active, reverse_dynamic, 64, 1024));
    EXPECT(active >= 1);
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&active, affine, 2048, 0));
    EXPECT(active == 0);
    int min_grid = 0, block = 0;
    CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, affine));
    EXPECT(block >= 32 && block <= 1024 && block % 32 == 0 && min_grid >= 1);
    CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, affine, 0, 100));
    EXPECT(block >= 1 && block <= 100 && min_grid >= 1);
    f = {1, 0, 0};
    bias = 0;
    affine<<<(n + block - 1) / block, block>>>(out, in, f, bias, n);
    CHECK(cudaMemcpy(hout, out, sizeof(hout), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) EXPECT(hout[i] == hin[i] || (printf("  at %d\n", i), false));

    // with_static_shared runs with 256 threads.
    with_static_shared<<<1, 256>>>(out);
    CHECK(cudaMemcpy(hout, out, 256 * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 256; ++i) EXPECT(hout[i] == (255 - i) * 3);

    free(hbig);
    free(hback);
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    CHECK(cudaFree(big_in));
    CHECK(cudaFree(big_out));
    return report("api_launch", bad);
}
