// Lambdas and range-based for loops inside kernels: lambdas capturing by
// reference and by copy (a captured variable changed after the capture),
// a mutable lambda, a generic lambda called with int and float, a lambda
// passed by value to a __device__ function template, and range-for over a
// local array (by value, by reference, with continue and break) and over a
// class with begin()/end().
#include <cstdio>
#include <cstdlib>

#include "check.h"

struct Span {
    const int *p;
    int n;
    __device__ const int *begin() const { return p; }
    __device__ const int *end() const { return p + n; }
};

template <typename F>
__device__ int apply_twice(F f, int v) {
    return f(f(v));
}

#define NL 8

__global__ void lambda_kernel(const int *in, int *out, int n, int m) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int *o = out + i * NL;
    int s = in[i];
    auto by_ref = [&](int x) { return x * s + m; };
    auto by_copy = [=](int x) { return x - s; };
    auto twice = [](auto x) { return x * 2; };
    int acc = 0;
    auto add = [&acc](int v) { acc += v; };
    add(5);
    add(i);
    s += 1;  // by_ref sees it, by_copy does not
    o[0] = by_ref(i);
    o[1] = by_copy(100);
    o[2] = twice(i) + (int)twice(0.75f);
    o[3] = acc;
    o[4] = apply_twice([m](int x) { return x + m; }, i);
    int counter = 10;
    auto bump = [counter]() mutable { counter += 3; return counter; };
    bump();
    o[5] = bump() + counter;  // 16 + 10

    int a[5] = {i, i + 1, i + 2, i + 3, i + 4};
    for (int &x : a) x *= 2;
    int sum = 0;
    for (int x : a) {
        if (x % 3 == 0) continue;
        sum += x;
    }
    o[6] = sum;
    Span sp{in, n};
    int t = 0;
    for (int v : sp) {
        if (v > in[i]) break;
        t += v;
    }
    o[7] = t;
}

int main() {
    const int n = 40;
    int hin[n], hout[n * NL];
    for (int i = 0; i < n; ++i) hin[i] = (i * 7) % 23;
    int *din, *dout;
    alloc_copy(&din, hin, sizeof(hin));
    CHECK(cudaMalloc(&dout, sizeof(hout)));
    const int m = 1000;
    lambda_kernel<<<2, 32>>>(din, dout, n, m);
    copy_back(hout, dout, sizeof(hout));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        int s = hin[i];
        int want[NL];
        want[0] = i * (s + 1) + m;
        want[1] = 100 - s;
        want[2] = 2 * i + 1;
        want[3] = 5 + i;
        want[4] = i + 2 * m;
        want[5] = 26;
        int sum = 0;
        for (int k = 0; k < 5; ++k) {
            int x = 2 * (i + k);
            if (x % 3 != 0) sum += x;
        }
        want[6] = sum;
        int t = 0;
        for (int k = 0; k < n && hin[k] <= hin[i]; ++k) t += hin[k];
        want[7] = t;
        check_row("element", i, hout + i * NL, want, NL, bad);
    }
    cudaFree(din);
    cudaFree(dout);
    return report("lambdas_range_for", bad);
}
