// Control flow: switch with fall-through and default, break, continue,
// early return, while, do/while, nested for loops and a bounded search.
#include <cstdio>
#include <cstdlib>

#include "check.h"

#define NOUT 6

__host__ __device__ int classify(int v) {
    int r = 0;
    switch (v % 8) {
    case 0:
        r += 1;
    case 1:  // fall through
        r += 10;
        break;
    case 2:
    case 3:
        r += 100;
    case 4:  // fall through
        r += 1000;
        break;
    case 5:
        return -1;
    default:
        r = 7;
    }
    return r;
}

__host__ __device__ int collatz_steps(unsigned x) {
    int steps = 0;
    while (true) {
        if (x <= 1) break;
        x = (x & 1) ? 3 * x + 1 : x / 2;
        if (++steps >= 500) break;
    }
    return steps;
}

__host__ __device__ void flow(int v, int *o) {
    o[0] = classify(v);
    o[1] = collatz_steps((unsigned)v + 1);
    int s = 0;
    for (int i = 0; i < 20; ++i) {
        if (i % 3 == 0) continue;
        if (i * v > 400) break;
        s += i;
    }
    o[2] = s;
    int d = 0, x = v;
    do {
        d++;
        x /= 10;
    } while (x != 0);
    o[3] = d;
    int found = -1;
    for (int i = 1; i < 10 && found < 0; ++i)
        for (int j = 1; j < 10; ++j)
            if (i * j == v % 50) {
                found = i * 10 + j;
                break;
            }
    o[4] = found;
    int w = 0;
    while (w * w < v) ++w;
    o[5] = w;
}

__global__ void flow_kernel(const int *in, int *out, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;  // early return
    if (in[t] < 0) {
        for (int k = 0; k < NOUT; ++k) out[t * NOUT + k] = 0;
        return;
    }
    flow(in[t], out + t * NOUT);
}

int main() {
    const int n = 80;
    int hin[n], hout[n * NOUT];
    for (int i = 0; i < n; ++i) hin[i] = (i % 10 == 9) ? -i : (i * 29) % 311;
    int *din, *dout;
    alloc_copy(&din, hin, sizeof(hin));
    CHECK(cudaMalloc(&dout, sizeof(hout)));
    flow_kernel<<<3, 32>>>(din, dout, n);
    copy_back(hout, dout, sizeof(hout));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        int want[NOUT] = {0, 0, 0, 0, 0, 0};
        if (hin[i] >= 0) flow(hin[i], want);
        check_row("thread", i, hout + i * NOUT, want, NOUT, bad);
    }
    cudaFree(din);
    cudaFree(dout);
    return report("control_flow", bad);
}
