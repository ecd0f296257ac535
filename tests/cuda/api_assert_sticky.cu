// corpus: runtime-api
// A device-side assert that fails: the launch itself succeeds, the next
// synchronisation returns cudaErrorAssert, and the error is sticky — every
// later call that touches the device returns it and cudaGetLastError does
// not clear it — while queries that do not touch the device still work.
// (The failed assertion prints a message on stderr; that is expected.)
#include <cassert>
#include "sticky_error.h"

__global__ void check_positive(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    assert(in[i] > 0);
    out[i] = in[i] * 2;
}

static void launch(unsigned grid, unsigned block, const int *in, int *out, int n) {
    check_positive<<<grid, block>>>(in, out, n);
}

int main() { return report("api_assert_sticky", sticky_error_checks(launch, cudaErrorAssert)); }
