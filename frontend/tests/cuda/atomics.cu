// Atomics on every type CUDA allows, in all three scopes.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__global__ void atomics(int *i, unsigned int *u, unsigned long long *ull, long long *ll, float *f, double *d,
                        unsigned short *us, __half *h, __half2 *h2, __nv_bfloat16 *b, __nv_bfloat162 *b2) {
    atomicAdd(i, 1);
    atomicAdd(u, 1u);
    atomicAdd(ull, 1ull);
    atomicAdd(f, 1.0f);
    atomicAdd(d, 1.0);
    atomicAdd(h, __float2half(1.0f));
    atomicAdd(h2, __floats2half2_rn(1.0f, 2.0f));
    atomicAdd(b, __float2bfloat16(1.0f));
    atomicAdd(b2, __floats2bfloat162_rn(1.0f, 2.0f));
    atomicAdd_block(i, 1);
    atomicAdd_system(f, 1.0f);
    atomicSub(i, 1);
    atomicSub(u, 1u);
    atomicExch(i, 2);
    atomicExch(u, 2u);
    atomicExch(ull, 2ull);
    atomicExch(f, 2.0f);
    atomicMin(i, 0);
    atomicMin(u, 0u);
    atomicMin(ll, 0ll);
    atomicMin(ull, 0ull);
    atomicMax(i, 9);
    atomicMax(u, 9u);
    atomicMax(ll, 9ll);
    atomicMax_block(ull, 9ull);
    atomicInc(u, 100u);
    atomicDec(u, 100u);
    atomicCAS(i, 1, 2);
    atomicCAS(u, 1u, 2u);
    atomicCAS(ull, 1ull, 2ull);
    atomicCAS(us, (unsigned short)1, (unsigned short)2);
    atomicCAS_system(i, 1, 2);
    atomicAnd(i, 3);
    atomicAnd(u, 3u);
    atomicAnd(ull, 3ull);
    atomicOr(i, 4);
    atomicOr(u, 4u);
    atomicOr(ull, 4ull);
    atomicXor(i, 5);
    atomicXor(u, 5u);
    atomicXor_block(ull, 5ull);
    __threadfence();
    __threadfence_block();
    __threadfence_system();
}

int main() {
    atomics<<<1, 1>>>(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                      nullptr);
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
