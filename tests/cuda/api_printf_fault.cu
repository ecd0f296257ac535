// corpus: runtime-api
// A device printf whose `%s` argument is not a valid pointer: the kernel
// faults inside the formatting, the next synchronisation returns the
// sticky cudaErrorIllegalAddress (700), and the host program keeps
// printing (the fault happens before stdout is locked, so its lock is not
// left held: before, the host's next printf hung when a helper thread had
// faulted, or printed after the kernel's partial line). The fault is
// reported on stderr; that is expected.
#include <cstdio>

#include "expect.h"

__global__ void greet(const char *name, int n) {
    if (threadIdx.x == 0) printf("block %d: %s %d\n", blockIdx.x, name, n);
}

int main() {
    char *name = nullptr;
    EXPECT(cudaMalloc(&name, 8) == cudaSuccess);
    EXPECT(cudaMemcpy(name, "device", 7, cudaMemcpyHostToDevice) == cudaSuccess);
    greet<<<1, 32>>>(name, 1);
    EXPECT(cudaDeviceSynchronize() == cudaSuccess);
    fflush(stdout);

    // Not a readable address, in blocks that run on every executor thread.
    greet<<<64, 32>>>((const char *)16, 2);
    cudaError_t e = cudaDeviceSynchronize();
    EXPECT(e == cudaErrorIllegalAddress);
    printf("synchronize: %s\n", cudaGetErrorName(e));
    fflush(stdout);
    for (int k = 0; k < 3; ++k) printf("host printf %d\n", k);
    if (bad == 0) printf("PASS api_printf_fault\n");
    return bad != 0;
}
