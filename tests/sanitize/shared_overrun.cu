// memcheck: a block of 64 threads fills a 64-float tile shifted by one,
// so the last thread writes past the block's shared memory.
#include <cstdio>
__global__ void shifted_tile(const float *in, float *out) {
  __shared__ float tile[64];
  int t = threadIdx.x;
  tile[t + 1] = in[blockIdx.x * 64 + t];
  __syncthreads();
  out[blockIdx.x * 64 + t] = tile[t];
}
int main() {
  float *in, *out;
  cudaMalloc(&in, 128 * sizeof(float));
  cudaMalloc(&out, 128 * sizeof(float));
  cudaMemset(in, 0, 128 * sizeof(float));
  shifted_tile<<<2, 64>>>(in, out);
  printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
