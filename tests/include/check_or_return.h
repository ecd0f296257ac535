// Checks for the simulated-device programs (tests/racer, tests/snitch),
// used in main(): a failed runtime call or condition prints FAIL with the
// file and line and returns 1 from main.
#pragma once
#include <cstdio>

#define CHECK(x)                                                              \
  do {                                                                        \
    cudaError_t e_ = (x);                                                     \
    if (e_ != cudaSuccess) {                                                  \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #x,                  \
             cudaGetErrorName(e_));                                           \
      return 1;                                                               \
    }                                                                         \
  } while (0)

#define EXPECT(c, ...)                                                        \
  do {                                                                        \
    if (!(c)) {                                                               \
      printf("FAIL %s:%d: ", __FILE__, __LINE__);                             \
      printf(__VA_ARGS__);                                                    \
      printf("\n");                                                           \
      return 1;                                                               \
    }                                                                         \
  } while (0)
