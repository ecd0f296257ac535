// corpus: runtime-api
// __managed__ variables: one storage shared by host code and kernels. The
// initial values are visible on the host before any launch, host writes are
// seen by kernels, kernel writes (plain and atomic) by the host after a
// synchronize, and the symbol API (cudaMemcpyFromSymbol,
// cudaGetSymbolAddress) names the same storage.
#include <cstdio>

struct Config {
    int scale;
    float weights[3];
};

__managed__ Config cfg = {7, {1.0f, 2.0f, 3.0f}};
__managed__ float acc[64];
__managed__ unsigned counter = 5;
__managed__ int done_by = -1;

__global__ void apply(int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        acc[i] = cfg.weights[i % 3] * (float)cfg.scale;
        atomicAdd(&counter, 1u);
    }
    if (i == 0) done_by = cfg.scale * 50;
}

__global__ void bump(unsigned *p) { atomicAdd(p, 10u); }

#include "expect.h"

int main() {
    // Initialisers are the host's values too.
    EXPECT(cfg.scale == 7);
    EXPECT(cfg.weights[2] == 3.0f);
    EXPECT(counter == 5u);

    cfg.scale = 2;
    apply<<<2, 32>>>(64);
    EXPECT(cudaDeviceSynchronize() == cudaSuccess);
    for (int i = 0; i < 64; i++) EXPECT(acc[i] == cfg.weights[i % 3] * 2.0f);
    EXPECT(done_by == 100);
    EXPECT(counter == 5u + 64u);

    // The symbol API and pointers taken on the host name the same storage.
    float copy[64];
    EXPECT(cudaMemcpyFromSymbol(copy, acc, sizeof copy) == cudaSuccess);
    EXPECT(copy[63] == acc[63]);
    void *addr = nullptr;
    EXPECT(cudaGetSymbolAddress(&addr, counter) == cudaSuccess);
    EXPECT(addr == (void *)&counter);
    bump<<<1, 4>>>(&counter);
    EXPECT(cudaDeviceSynchronize() == cudaSuccess);
    EXPECT(counter == 5u + 64u + 40u);

    return report("api_managed_globals", bad);
}
