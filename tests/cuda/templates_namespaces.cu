// Namespaces, kernel templates instantiated with several types and
// constants, non-type template parameters of enum type, enums, typedefs,
// aliases, overloads and a compile-time recursive template.
#include <cstdio>
#include <cstdlib>

#include "check.h"

namespace geom {
namespace detail {
__host__ __device__ inline int sq(int x) { return x * x; }
}  // namespace detail

template <typename T>
__host__ __device__ T clampv(T v, T lo, T hi) {
    return v < lo ? lo : (v > hi ? hi : v);
}

enum Shape { Square = 2, Cube = 3 };
enum class Mode : unsigned char { Add, Mul, Max };
}  // namespace geom

typedef unsigned int uint;
using real = float;

template <int N>
struct Pow2 {
    static const int value = 2 * Pow2<N - 1>::value;
};
template <>
struct Pow2<0> {
    static const int value = 1;
};

__host__ __device__ int pick(int x) { return x + 1; }
__host__ __device__ float pick(float x) { return x * 2.0f; }
__host__ __device__ int pick(int x, int y) { return x * y; }

template <typename T, int K>
__global__ void scale_k(T *data, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = geom::clampv<T>(data[i] * (T)K + (T)geom::detail::sq(K), (T)-100, (T)100);
}

template <geom::Mode M>
__global__ void combine(const int *a, const int *b, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    switch (M) {
    case geom::Mode::Add: out[i] = a[i] + b[i]; break;
    case geom::Mode::Mul: out[i] = a[i] * b[i]; break;
    case geom::Mode::Max: out[i] = a[i] > b[i] ? a[i] : b[i]; break;
    }
}

__global__ void misc(const int *in, int *out, real *fout, int n) {
    uint i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (uint)n) return;
    geom::Shape s = (in[i] & 1) ? geom::Cube : geom::Square;
    int p = 1;
    for (int k = 0; k < (int)s; ++k) p *= in[i];
    out[2 * i] = p + Pow2<5>::value;
    out[2 * i + 1] = pick(in[i]) + pick(in[i], 3);
    fout[i] = pick((real)in[i]);
}

static int bad = 0;

template <typename T, int K>
static void run_scale(const char *name) {
    const int n = 50;
    T h[n], r[n];
    for (int i = 0; i < n; ++i) h[i] = (T)(i - 25);
    T *d;
    alloc_copy(&d, h, sizeof(h));
    scale_k<T, K><<<2, 32>>>(d, n);
    CHECK(cudaMemcpy(r, d, sizeof(r), cudaMemcpyDeviceToHost));
    cudaFree(d);
    for (int i = 0; i < n; ++i)
        if (r[i] != geom::clampv<T>(h[i] * (T)K + (T)geom::detail::sq(K), (T)-100, (T)100)) {
            if (bad < 5) printf("%s element %d differs\n", name, i);
            ++bad;
        }
}

template <geom::Mode M>
static void run_combine(const char *name, const int *da, const int *db, int *dout, const int *ha, const int *hb, int n) {
    int r[64];
    combine<M><<<1, n>>>(da, db, dout, n);
    CHECK(cudaMemcpy(r, dout, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
        int want = M == geom::Mode::Add ? ha[i] + hb[i] : M == geom::Mode::Mul ? ha[i] * hb[i] : (ha[i] > hb[i] ? ha[i] : hb[i]);
        if (r[i] != want) {
            if (bad < 5) printf("%s element %d differs\n", name, i);
            ++bad;
        }
    }
}

int main() {
    run_scale<int, 2>("int,2");
    run_scale<int, 3>("int,3");
    run_scale<float, 4>("float,4");
    run_scale<long long, 5>("long long,5");

    const int n = 64;
    int ha[n], hb[n];
    for (int i = 0; i < n; ++i) {
        ha[i] = i % 9 - 4;
        hb[i] = (i * 5) % 11 - 5;
    }
    int *da, *db, *dout;
    real *dfout;
    alloc_copy(&da, ha, sizeof(ha));
    alloc_copy(&db, hb, sizeof(hb));
    CHECK(cudaMalloc(&dout, 2 * sizeof(ha)));
    CHECK(cudaMalloc(&dfout, n * sizeof(real)));
    run_combine<geom::Mode::Add>("add", da, db, dout, ha, hb, n);
    run_combine<geom::Mode::Mul>("mul", da, db, dout, ha, hb, n);
    run_combine<geom::Mode::Max>("max", da, db, dout, ha, hb, n);

    int hout[2 * n];
    real hf[n];
    misc<<<2, 32>>>(da, dout, dfout, n);
    CHECK(cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hf, dfout, sizeof(hf), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
        int p = (ha[i] & 1) ? ha[i] * ha[i] * ha[i] : ha[i] * ha[i];
        if (hout[2 * i] != p + 32 || hout[2 * i + 1] != ha[i] + 1 + ha[i] * 3 || hf[i] != (real)ha[i] * 2.0f) {
            if (bad < 5) printf("misc element %d differs\n", i);
            ++bad;
        }
    }
    cudaFree(da);
    cudaFree(db);
    cudaFree(dout);
    cudaFree(dfout);
    return report("templates_namespaces", bad);
}
