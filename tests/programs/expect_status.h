// Host-side check for the texture programs: a runtime call must return the
// status `want`; otherwise main() prints the call and what it returned, and
// returns 1.
#pragma once
#include <cstdio>

#define CHECK(call, want)                                                      \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != (want)) {                                                        \
      printf("FAIL %s: %s\n", #call, cudaGetErrorName(e_));                    \
      return 1;                                                                \
    }                                                                          \
  } while (0)
