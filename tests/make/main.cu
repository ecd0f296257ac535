#include <cstdio>
#include "common.h"
__global__ void add_one(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] += 1.0f;
}
int main() {
  const int n = 1000;
  float h[n];
  for (int i = 0; i < n; i++) h[i] = (float)i;
  float *d;
  cudaMalloc(&d, sizeof(h));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  add_one<<<(n + 255) / 256, 256>>>(d, n);
  launch_scale(d, 2.0f, n);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  cudaFree(d);
  float want = 0;
  for (int i = 0; i < n; i++) want += 2.0f * (i + 1);
  float got = host_sum(h, n);
  if (got != want) { printf("FAIL scale_add: %f != %f\n", got, want); return 1; }
  printf("PASS scale_add\n");
  return 0;
}
