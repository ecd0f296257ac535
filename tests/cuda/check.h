// Host-side checking shared by the corpus programs: CHECK for runtime calls
// that must succeed, the copies around a launch, and the PASS/FAIL line.
// Host code only: each program's kernels stay in its own file.
#pragma once
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                              \
    do {                                                                         \
        cudaError_t err_ = (call);                                               \
        if (err_ != cudaSuccess) {                                               \
            printf("CUDA error %s at line %d\n", cudaGetErrorString(err_), __LINE__); \
            exit(1);                                                             \
        }                                                                        \
    } while (0)

// cudaMalloc of `bytes` into `*dev`, then a copy of `bytes` from `host`.
template <class T>
static void alloc_copy(T **dev, const void *host, size_t bytes) {
    CHECK(cudaMalloc(dev, bytes));
    CHECK(cudaMemcpy(*dev, host, bytes, cudaMemcpyHostToDevice));
}

// Checks the launch just made, then copies `bytes` of its result to `host`.
static inline void copy_back(void *host, const void *dev, size_t bytes) {
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost));
}

// The programs' pseudo-random inputs: the next state of a linear
// congruential generator.
static inline unsigned lcg(unsigned &s) { return s = s * 1664525u + 1013904223u; }

// `n` words of the generator from `state`, each folded as s ^ (s >> shift).
static inline void lcg_fill(unsigned *out, int n, unsigned state, int shift) {
    for (int i = 0; i < n; ++i) {
        lcg(state);
        out[i] = state ^ (state >> shift);
    }
}

// One value of a mismatch line.
static inline void show(int v) { printf("%d", v); }
static inline void show(unsigned v) { printf("%08x", v); }
static inline void show(long long v) { printf("%lld", v); }
static inline void show(float v) { printf("%.9g", v); }
static inline void show(double v) { printf("%.17g", v); }

// Compares the `count` results of one element (`what` `i`) with `want`,
// counting each difference in `bad` and printing the first `shown` of all.
template <class G, class W>
static void check_row(const char *what, int i, const G *got, const W *want, int count, int &bad,
                      int shown = 5) {
    for (int k = 0; k < count; ++k)
        if (got[k] != want[k]) {
            if (bad < shown) {
                printf("%s %d result %d: got ", what, i, k);
                show(got[k]);
                printf(" want ");
                show(want[k]);
                printf("\n");
            }
            ++bad;
        }
}

// The program's last line, `PASS name` or `FAIL name` with the number of
// failed checks, and its exit status.
static inline int report(const char *name, int failed) {
    if (failed) {
        printf("FAIL %s (%d failed)\n", name, failed);
        return 1;
    }
    printf("PASS %s\n", name);
    return 0;
}
