// Warp-level reduction with shuffles and votes.
#include <cuda_runtime.h>
#include <cstdio>

__device__ float warp_sum(float v) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

__global__ void warp_reduce(const float *in, float *out, unsigned int *votes) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = warp_sum(in[i]);
    int lane = threadIdx.x % 32;
    unsigned int mask = __activemask();
    unsigned int ballot = __ballot_sync(mask, v > 0.0f);
    int any = __any_sync(0xffffffffu, lane == 3);
    int all = __all_sync(0xffffffffu, lane < 32);
    double d = __shfl_xor_sync(0xffffffffu, (double)v, 1);
    long long l = __shfl_up_sync(0xffffffffu, (long long)i, 1);
    int src = __shfl_sync(0xffffffffu, i, 0, 16);
    __syncwarp();
    if (lane == 0) {
        out[i / 32] = v + (float)d + (float)l + (float)src;
        votes[i / 32] = ballot + any + all;
    }
}

int main() {
    float *in, *out;
    unsigned int *votes;
    cudaMalloc(&in, 256 * sizeof(float));
    cudaMalloc(&out, 8 * sizeof(float));
    cudaMalloc(&votes, 8 * sizeof(unsigned int));
    cudaMemset(in, 0, 256 * sizeof(float));
    warp_reduce<<<1, 256>>>(in, out, votes);
    cudaDeviceSynchronize();
    printf("done\n");
    return 0;
}
