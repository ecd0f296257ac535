#include <cstdio>
__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
int main() {
  const int n = 100000;
  float *a, *b, *c;
  cudaMallocManaged(&a, n * 4); cudaMallocManaged(&b, n * 4); cudaMallocManaged(&c, n * 4);
  for (int i = 0; i < n; i++) { a[i] = i; b[i] = 2 * i; }
  vadd<<<(n + 255) / 256, 256>>>(a, b, c, n);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { printf("error %s\n", cudaGetErrorString(e)); return 1; }
  for (int i = 0; i < n; i++) if (c[i] != 3.0f * i) { printf("FAIL %d: %f\n", i, c[i]); return 1; }
  printf("PASS vadd\n");
  return 0;
}
