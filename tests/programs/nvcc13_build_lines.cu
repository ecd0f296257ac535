// nvcc 13-era build lines: `-cudart shared|static`, `-arch=sm_120` (newer
// than clang 16 knows) and C++17 host code (<optional>, structured
// bindings, `if constexpr`; nvcc 13's default dialect, or `-std=c++17`) in
// which old code's `register` still compiles.
#include <cstdio>
#include <optional>
#include <utility>

__global__ void square(int *out, int n) {
    register int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = i * i;
}

template <class T>
static int size_of_kind() {
    if constexpr (sizeof(T) == 4) return 4;
    else return 0;
}

static std::optional<int> find(const int *v, int n, int want) {
    for (int i = 0; i < n; ++i)
        if (v[i] == want) return i;
    return std::nullopt;
}

int main() {
    const int n = 100;
    int *d = nullptr, h[n];
    if (cudaMalloc(&d, n * sizeof(int)) != cudaSuccess) return 1;
    square<<<(n + 31) / 32, 32>>>(d, n);
    cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(d);
    auto [index, found] = std::pair{find(h, n, 49), size_of_kind<int>()};
    if (!index || *index != 7 || found != 4) {
        printf("FAIL nvcc13_build_lines\n");
        return 1;
    }
    printf("PASS nvcc13_build_lines\n");
    return 0;
}
