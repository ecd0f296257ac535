#pragma once
// Shared by linked_main.cu and linked_lib.cu (tests/rdc/README.md).
#ifndef LIB_OFFSET
#define LIB_OFFSET 1
#endif
// Defined in linked_lib.cu, used by kernels of linked_main.cu.
extern __device__ int hits[8];
extern __constant__ float scale;
extern __device__ void count(int v);
extern __device__ int lib_offset();
// A kernel of linked_lib.cu launched from linked_main.cu.
__global__ void reverse_buckets(int *out);
// The offset linked_lib.cu was built with (host side).
int lib_offset_host();
// Instantiated in both units (weak definitions the link keeps one of).
template <typename T> __device__ __noinline__ T twice(T x) { return x + x; }
