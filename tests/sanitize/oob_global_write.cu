// memcheck: the last thread writes one int past a cudaMalloc buffer
// (`i <= n` instead of `i < n`).
#include <cstdio>
__global__ void write_past(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) a[i] = i;
}
int main() {
  int n = 100, *a;
  cudaMalloc(&a, n * sizeof(int));
  write_past<<<4, 32>>>(a, n);
  printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
