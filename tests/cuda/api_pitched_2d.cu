// corpus: runtime-api
// Pitched 2-D memory: cudaMallocPitch (the pitch is at least the row width),
// cudaMemcpy2D host<->device and device->device with sub-rectangles,
// cudaMemset2D on a sub-rectangle, cudaMemcpy2DAsync on a stream, a kernel
// indexing rows by the pitch, and the width > pitch error.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "expect.h"

// out(x, y) = in(x, y) * 10 + y, rows `pitch` bytes apart.
__global__ void rows_kernel(const float *in, size_t in_pitch, float *out, size_t out_pitch,
                            int width, int height) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    const float *row_in = (const float *)((const char *)in + y * in_pitch);
    float *row_out = (float *)((char *)out + y * out_pitch);
    row_out[x] = row_in[x] * 10.0f + (float)y;
}

int main() {
    const int W = 37, H = 19;
    float host[H][W], back[H][W];
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) host[y][x] = (float)(y * 100 + x);

    float *a, *b;
    size_t pa = 0, pb = 0;
    CHECK(cudaMallocPitch((void **)&a, &pa, W * sizeof(float), H));
    CHECK(cudaMallocPitch(&b, &pb, W * sizeof(float), H));
    EXPECT(pa >= W * sizeof(float) && pa % sizeof(float) == 0);
    EXPECT(pb >= W * sizeof(float));

    // Whole array in, kernel over the pitched rows, whole array out.
    CHECK(cudaMemcpy2D(a, pa, host, W * sizeof(float), W * sizeof(float), H,
                       cudaMemcpyHostToDevice));
    dim3 block(16, 8), grid((W + 15) / 16, (H + 7) / 8);
    rows_kernel<<<grid, block>>>(a, pa, b, pb, W, H);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy2D(back, W * sizeof(float), b, pb, W * sizeof(float), H,
                       cudaMemcpyDeviceToHost));
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x)
            if (back[y][x] != host[y][x] * 10.0f + (float)y) {
                if (bad < 5) printf("kernel (%d,%d): %g\n", x, y, back[y][x]);
                ++bad;
            }

    // cudaMemset2D on a sub-rectangle (bytes 8.. of rows 2..6, 12 bytes wide).
    CHECK(cudaMemcpy2D(a, pa, host, W * sizeof(float), W * sizeof(float), H,
                       cudaMemcpyHostToDevice));
    CHECK(cudaMemset2D((char *)a + 2 * pa + 2 * sizeof(float), pa, 0, 3 * sizeof(float), 5));
    CHECK(cudaMemcpy2D(back, W * sizeof(float), a, pa, W * sizeof(float), H,
                       cudaMemcpyDeviceToHost));
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            bool cleared = y >= 2 && y < 7 && x >= 2 && x < 5;
            float want = cleared ? 0.0f : host[y][x];
            if (back[y][x] != want) {
                if (bad < 5) printf("memset2D (%d,%d): %g want %g\n", x, y, back[y][x], want);
                ++bad;
            }
        }

    // Device to device: a 5x4 block from (x=3, y=1) of `a` to (x=10, y=12) of `b`.
    CHECK(cudaMemset2D(b, pb, 0xff, W * sizeof(float), H));
    CHECK(cudaMemcpy2D((char *)b + 12 * pb + 10 * sizeof(float), pb,
                       (char *)a + 1 * pa + 3 * sizeof(float), pa, 5 * sizeof(float), 4,
                       cudaMemcpyDeviceToDevice));
    CHECK(cudaMemcpy2D(back, W * sizeof(float), b, pb, W * sizeof(float), H,
                       cudaMemcpyDeviceToHost));
    int nan_bits = -1;
    float all_ones;
    memcpy(&all_ones, &nan_bits, sizeof(float));
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            bool inside = y >= 12 && y < 16 && x >= 10 && x < 15;
            if (inside) {
                int sx = x - 10 + 3, sy = y - 12 + 1;  // `a` still has the cleared block
                bool cleared = sy >= 2 && sy < 7 && sx >= 2 && sx < 5;
                float want = cleared ? 0.0f : host[sy][sx];
                if (back[y][x] != want) {
                    if (bad < 5) printf("2D d2d (%d,%d): %g want %g\n", x, y, back[y][x], want);
                    ++bad;
                }
            } else if (memcmp(&back[y][x], &all_ones, sizeof(float)) != 0) {
                if (bad < 5) printf("2D d2d (%d,%d) was overwritten\n", x, y);
                ++bad;
            }
        }

    // Asynchronous 2-D copies on a stream into a pinned buffer with its own pitch.
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    const size_t hp = 64 * sizeof(float);
    float *pinned;
    CHECK(cudaMallocHost(&pinned, hp * H));
    memset(pinned, 0, hp * H);
    CHECK(cudaMemcpy2DAsync(a, pa, host, W * sizeof(float), W * sizeof(float), H,
                            cudaMemcpyHostToDevice, s));
    rows_kernel<<<grid, block, 0, s>>>(a, pa, b, pb, W, H);
    CHECK(cudaMemset2DAsync(b, pb, 0, sizeof(float), H, s));
    CHECK(cudaMemcpy2DAsync(pinned, hp, b, pb, W * sizeof(float), H, cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    for (int y = 0; y < H; ++y) {
        for (int x = 0; x < W; ++x) {
            float want = x == 0 ? 0.0f : host[y][x] * 10.0f + (float)y;
            if (pinned[y * 64 + x] != want) {
                if (bad < 5) printf("async (%d,%d): %g want %g\n", x, y, pinned[y * 64 + x], want);
                ++bad;
            }
        }
        for (int x = W; x < 64; ++x)
            if (pinned[y * 64 + x] != 0.0f) {
                if (bad < 5) printf("async (%d,%d) was overwritten\n", x, y);
                ++bad;
            }
    }

    // A row wider than its pitch is an error, and nothing is copied.
    EXPECT(cudaMemcpy2D(back, W * sizeof(float), a, W * sizeof(float), pa + 4, 2,
                        cudaMemcpyDeviceToHost) == cudaErrorInvalidPitchValue);
    EXPECT(cudaGetLastError() == cudaErrorInvalidPitchValue);
    // A 2-D range running past the allocation is an invalid value.
    EXPECT(cudaMemset2D(a, pa, 0, W * sizeof(float), H + 1) == cudaErrorInvalidValue);
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue);

    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFreeHost(pinned));
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    return report("api_pitched_2d", bad);
}
