// memcheck: thread 0 reads a[-1], before its cudaMalloc buffer.
#include <cstdio>
__global__ void left_neighbour(const float *a, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i - 1] + a[i];
}
int main() {
  int n = 64;
  float *a, *out;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemset(a, 0, n * sizeof(float));
  left_neighbour<<<2, 32>>>(a, out, n);
  printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
