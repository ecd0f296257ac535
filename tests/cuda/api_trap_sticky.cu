// corpus: runtime-api
// A kernel that calls __trap() on bad input: the launch itself succeeds,
// the next synchronisation returns cudaErrorLaunchFailure, and the error is
// sticky — every later call that touches the device returns it and
// cudaGetLastError does not clear it — while queries that do not touch the
// device still work. (The trap prints a message on stderr; that is expected.)
#include "sticky_error.h"

__global__ void check_positive(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    if (in[i] <= 0) __trap();
    out[i] = in[i] * 2;
}

static void launch(unsigned grid, unsigned block, const int *in, int *out, int n) {
    check_positive<<<grid, block>>>(in, out, n);
}

int main() { return report("api_trap_sticky", sticky_error_checks(launch, cudaErrorLaunchFailure)); }
