// Device printf with deterministic output (one thread prints; the
// expected text is in the comment below), device assert (always holds),
// and clock()/clock64() checked for monotonicity only.
//
// Expected device output:
// hello from block 0 thread 0
// int -42 unsigned 42 hex 2a HEX 2A octal 52
// long long -1234567890123 ull 18446744073709551615
// float 3.250000 prec 3.142 sci 1.234500e+02 g 0.5
// char Z string cucc percent % width [   17] left [17   ]
// sum 4950
#include <cassert>
#include <cstdio>
#include <cstdlib>

#include "check.h"

__global__ void say(const int *data, int n) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        printf("hello from block %d thread %d\n", blockIdx.x, threadIdx.x);
        printf("int %d unsigned %u hex %x HEX %X octal %o\n", -42, 42u, 42, 42, 42);
        printf("long long %lld ull %llu\n", -1234567890123ll, 18446744073709551615ull);
        printf("float %f prec %.3f sci %e g %g\n", 3.25f, 3.14159, 123.45, 0.5);
        printf("char %c string %s percent %% width [%5d] left [%-5d]\n", 'Z', "cucc", 17, 17);
        int s = 0;
        for (int i = 0; i < n; ++i) s += data[i];
        printf("sum %d\n", s);
    }
}

__global__ void checked(const int *in, int *out, long long *ticks, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    long long t0 = clock64();
    clock_t c0 = clock();
    int v = in[i];
    assert(v >= 0 && v < 1000);
    int acc = 0;
    for (int k = 0; k <= v % 16; ++k) acc += k * v;
    assert(acc >= 0);
    out[i] = acc;
    clock_t c1 = clock();
    long long t1 = clock64();
    ticks[2 * i] = t1 - t0;
    ticks[2 * i + 1] = (long long)(unsigned)(c1 - c0);
}

int main() {
    const int n = 100;
    int hin[n], hout[n];
    long long hticks[2 * n];
    for (int i = 0; i < n; ++i) hin[i] = i;
    int *din, *dout;
    long long *dticks;
    alloc_copy(&din, hin, sizeof(hin));
    CHECK(cudaMalloc(&dout, sizeof(hout)));
    CHECK(cudaMalloc(&dticks, sizeof(hticks)));
    say<<<2, 32>>>(din, n);
    CHECK(cudaDeviceSynchronize());
    checked<<<4, 32>>>(din, dout, dticks, n);
    copy_back(hout, dout, sizeof(hout));
    CHECK(cudaMemcpy(hticks, dticks, sizeof(hticks), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        int acc = 0;
        for (int k = 0; k <= hin[i] % 16; ++k) acc += k * hin[i];
        if (hout[i] != acc) ++bad;
        if (hticks[2 * i] < 0 || hticks[2 * i + 1] > 0x7fffffffll) {
            printf("clock went backwards in thread %d\n", i);
            ++bad;
        }
    }
    cudaFree(din);
    cudaFree(dout);
    cudaFree(dticks);
    return report("printf_assert_clock", bad);
}
