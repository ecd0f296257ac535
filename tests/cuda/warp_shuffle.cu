// Warp shuffles: __shfl_sync (broadcast and with a width), __shfl_up_sync,
// __shfl_down_sync (a warp sum) and __shfl_xor_sync (a butterfly max).
#include <cstdio>
#include <cstdlib>

#include "check.h"

#define FULL 0xffffffffu

__global__ void shuffles(const int *in, int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    int v = in[i];
    int bcast = __shfl_sync(FULL, v, 3);
    int seg = __shfl_sync(FULL, v, 0, 8);
    int up = __shfl_up_sync(FULL, v, 1);
    if (lane == 0) up = 0;
    int down = __shfl_down_sync(FULL, v, 2);
    if (lane >= 30) down = 0;
    int sum = v;
    for (int d = 16; d > 0; d >>= 1) sum += __shfl_down_sync(FULL, sum, d);
    int mx = v;
    for (int m = 1; m < 32; m <<= 1) {
        int o = __shfl_xor_sync(FULL, mx, m);
        mx = o > mx ? o : mx;
    }
    float f = __shfl_xor_sync(FULL, (float)v * 0.5f, 1);
    out[6 * i + 0] = bcast;
    out[6 * i + 1] = seg;
    out[6 * i + 2] = up + down;
    out[6 * i + 3] = lane == 0 ? sum : -1;
    out[6 * i + 4] = mx;
    out[6 * i + 5] = (int)(f * 2.0f);
}

int main() {
    const int n = 128;
    int hin[n], hout[6 * n];
    for (int i = 0; i < n; ++i) hin[i] = (i * 73) % 199 - 99;
    int *din, *dout;
    alloc_copy(&din, hin, sizeof(hin));
    CHECK(cudaMalloc(&dout, sizeof(hout)));
    shuffles<<<2, 64>>>(din, dout);
    copy_back(hout, dout, sizeof(hout));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        int lane = i % 32, w = i - lane;
        int sum = 0, mx = hin[w];
        for (int k = 0; k < 32; ++k) {
            sum += hin[w + k];
            mx = hin[w + k] > mx ? hin[w + k] : mx;
        }
        int want[6] = {hin[w + 3], hin[w + (lane / 8) * 8], (lane == 0 ? 0 : hin[i - 1]) + (lane >= 30 ? 0 : hin[i + 2]),
                       lane == 0 ? sum : -1, mx, hin[i ^ 1]};
        check_row("thread", i, hout + i * 6, want, 6, bad);
    }
    cudaFree(din);
    cudaFree(dout);
    return report("warp_shuffle", bad);
}
