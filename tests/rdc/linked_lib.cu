// Device functions, variables and a kernel used from linked_main.cu.
#include <cstdio>
#include "linked.h"

__device__ int hits[8];
__constant__ float scale = 2.0f;

// Internal to this unit; linked_main.cu has its own, different one.
static __device__ __noinline__ int bucket(int v) { return v & 7; }

__device__ __noinline__ void count(int v) { atomicAdd(&hits[bucket(v)], 1); }
__device__ __noinline__ int lib_offset() { return (int)twice((float)LIB_OFFSET) / 2; }
int lib_offset_host() { return LIB_OFFSET; }

__global__ void reverse_buckets(int *out) {
    extern __shared__ int buf[];
    buf[threadIdx.x] = bucket(threadIdx.x) + lib_offset();
    __syncthreads();
    out[threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
    if (threadIdx.x == 0) printf("lib: reverse_buckets ran\n");
}
