// A member class template of a class template specialisation used as a
// local's type in device code, with a `bool` argument, and an unnamed enum
// member of the specialisation in an expression, as Rodinia's dwt2d writes
// `FDWT53<64, 8>::FDWT53Column<false>` and `STRIDE`. Prints PASS.
#include <cstdio>

namespace dwt {
template <int W, int H>
struct Outer {
    enum { STRIDE = W + 1, ROWS = H };

    template <bool CHECK>
    struct Column {
        int v;
        __device__ void clear() { v = CHECK ? STRIDE : ROWS; }
    };

    template <bool CHECK>
    __device__ void transform(int *out) {
        Column<CHECK> c;
        Column<!CHECK> d;
        c.clear();
        d.clear();
        out[threadIdx.x] = c.v * 100 + d.v + threadIdx.x * STRIDE;
    }
};
}  // namespace dwt

template <int W, int H>
__global__ void kern(int *out) {
    dwt::Outer<W, H> o;
    o.template transform<true>(out);
}

int main() {
    const int n = 4;
    int *d;
    cudaMalloc(&d, n * sizeof(int));
    kern<64, 8><<<1, n>>>(d);
    int h[n];
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) {
        int want = 65 * 100 + 8 + i * 65;
        if (h[i] != want) {
            printf("FAIL at %d: %d, want %d\n", i, h[i], want);
            return 1;
        }
    }
    printf("PASS\n");
    return 0;
}
