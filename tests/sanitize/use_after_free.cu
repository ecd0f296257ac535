// memcheck: a kernel reads a buffer the host already freed.
#include <cstdio>
__global__ void sum(const int *a, int *out, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) s += a[i];
  *out = s;
}
int main() {
  int n = 256, *a, *out;
  cudaMalloc(&a, n * sizeof(int));
  cudaMalloc(&out, sizeof(int));
  cudaMemset(a, 0, n * sizeof(int));
  cudaFree(a);
  sum<<<1, 1>>>(a, out, n);
  printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
