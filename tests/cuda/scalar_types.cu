// Every scalar type through one kernel template, plus bool logic.
// Integer results are compared exactly; the float and double inputs are
// chosen so that every result is exact too.
#include <cstdio>
#include <cstdlib>

#include "check.h"

template <typename T>
__global__ void affine(T *out, const T *in, T a, T b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (T)(in[i] * a + b);
}

__global__ void logic(bool *out, const int *in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        bool even = (in[i] % 2) == 0;
        bool big = in[i] > 10;
        out[i] = even != big;
    }
}

static const int N = 64;

template <typename T>
static int run(const char *name, T a, T b) {
    T h_in[N], h_out[N];
    for (int i = 0; i < N; ++i) h_in[i] = (T)(i % 11);
    T *d_in, *d_out;
    alloc_copy(&d_in, h_in, sizeof(h_in));
    CHECK(cudaMalloc(&d_out, sizeof(h_out)));
    affine<T><<<2, 32>>>(d_out, d_in, a, b, N);
    copy_back(h_out, d_out, sizeof(h_out));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    int bad = 0;
    for (int i = 0; i < N; ++i) {
        T want = (T)(h_in[i] * a + b);
        if (h_out[i] != want) {
            if (bad < 5) printf("%s: element %d differs\n", name, i);
            ++bad;
        }
    }
    return bad;
}

int main() {
    int bad = 0;
    bad += run<char>("char", 3, 5);
    bad += run<signed char>("signed char", 3, -50);
    bad += run<unsigned char>("unsigned char", 29, 7);
    bad += run<short>("short", 1000, -3000);
    bad += run<unsigned short>("unsigned short", 7000, 1);
    bad += run<int>("int", -123456, 7);
    bad += run<unsigned int>("unsigned int", 0x9E3779B9u, 1u);
    bad += run<long long>("long long", 1LL << 40, -3);
    bad += run<unsigned long long>("unsigned long long", 0x9E3779B97F4A7C15ull, 11);
    bad += run<float>("float", 1.5f, 0.25f);
    bad += run<double>("double", 1e10 + 0.5, -0.125);

    int h_in[N];
    bool h_out[N];
    for (int i = 0; i < N; ++i) h_in[i] = (i * 7) % 23;
    int *d_in;
    bool *d_out;
    alloc_copy(&d_in, h_in, sizeof(h_in));
    CHECK(cudaMalloc(&d_out, sizeof(h_out)));
    logic<<<1, N>>>(d_out, d_in, N);
    CHECK(cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; ++i) {
        bool want = ((h_in[i] % 2) == 0) != (h_in[i] > 10);
        if (h_out[i] != want) {
            printf("bool: element %d differs\n", i);
            ++bad;
        }
    }
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    return report("scalar_types", bad);
}
