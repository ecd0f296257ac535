// Warp shuffles: __shfl_sync (broadcast and with a width), __shfl_up_sync,
// __shfl_down_sync (a warp sum) and __shfl_xor_sync (a butterfly max).
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                              \
    do {                                                                         \
        cudaError_t err_ = (call);                                               \
        if (err_ != cudaSuccess) {                                               \
            printf("CUDA error %s at line %d\n", cudaGetErrorString(err_), __LINE__); \
            exit(1);                                                             \
        }                                                                        \
    } while (0)

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
    CHECK(cudaMalloc(&din, sizeof(hin)));
    CHECK(cudaMalloc(&dout, sizeof(hout)));
    CHECK(cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice));
    shuffles<<<2, 64>>>(din, dout);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost));
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
        for (int k = 0; k < 6; ++k)
            if (hout[6 * i + k] != want[k]) {
                if (bad < 5) printf("thread %d result %d: got %d want %d\n", i, k, hout[6 * i + k], want[k]);
                ++bad;
            }
    }
    cudaFree(din);
    cudaFree(dout);
    if (bad) {
        printf("FAIL warp_shuffle (%d mismatches)\n", bad);
        return 1;
    }
    printf("PASS warp_shuffle\n");
    return 0;
}
