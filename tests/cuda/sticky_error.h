// Host side of the sticky-error programs (api_assert_sticky.cu,
// api_trap_sticky.cu): the kernel doubles positive elements and fails on
// the others, each program in its own way; `sticky_error_checks` checks that
// the launch succeeds, the next synchronisation returns `want`, and the
// error is sticky — every later call that touches the device returns it and
// cudaGetLastError does not clear it — while queries that do not touch the
// device still work. It returns the number of failed checks.
#pragma once
#include "expect.h"

// Launches the program's kernel on `grid` blocks of `block` threads.
typedef void (*check_launch)(unsigned grid, unsigned block, const int *in, int *out, int n);

static int sticky_error_checks(check_launch launch, cudaError_t want) {
    const int n = 256;
    int h[n];
    for (int i = 0; i < n; ++i) h[i] = i + 1;
    int *in, *out;
    CHECK(cudaMalloc(&in, n * sizeof(int)));
    CHECK(cudaMalloc(&out, n * sizeof(int)));
    CHECK(cudaMemcpy(in, h, sizeof(h), cudaMemcpyHostToDevice));

    // Every element is positive: nothing happens.
    launch(n / 64, 64, in, out, n);
    CHECK(cudaDeviceSynchronize());
    int back[n];
    CHECK(cudaMemcpy(back, out, sizeof(back), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) EXPECT(back[i] == 2 * (i + 1) || (printf("  at %d\n", i), false));

    // One element breaks it.
    h[77] = -5;
    CHECK(cudaMemcpy(in, h, sizeof(h), cudaMemcpyHostToDevice));
    fflush(stdout);
    launch(n / 64, 64, in, out, n);
    EXPECT(cudaDeviceSynchronize() == want);

    // Sticky: launches, copies, allocations, streams and events all fail with it.
    EXPECT(cudaGetLastError() == want);
    EXPECT(cudaGetLastError() == want);
    EXPECT(cudaPeekAtLastError() == want);
    EXPECT(cudaMemcpy(back, out, sizeof(back), cudaMemcpyDeviceToHost) == want);
    EXPECT(cudaMemset(out, 0, sizeof(back)) == want);
    int *more = nullptr;
    EXPECT(cudaMalloc(&more, 64) == want);
    cudaStream_t s;
    EXPECT(cudaStreamCreate(&s) == want);
    cudaEvent_t e;
    EXPECT(cudaEventCreate(&e) == want);
    launch(1, 1, in, out, 1);
    EXPECT(cudaGetLastError() == want);
    EXPECT(cudaDeviceSynchronize() == want);
    EXPECT(cudaStreamSynchronize(0) == want);

    // Queries that do not touch the device still answer.
    int count = 0, version = 0;
    CHECK(cudaGetDeviceCount(&count));
    EXPECT(count >= 1);
    CHECK(cudaRuntimeGetVersion(&version));
    EXPECT(version > 0);
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    EXPECT(prop.warpSize == 32);
    EXPECT(cudaGetErrorName(want) != nullptr);

    return bad;
}
