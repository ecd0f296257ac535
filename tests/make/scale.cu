#include "common.h"
__global__ void scale(float *d, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] *= s;
}
void launch_scale(float *d, float s, int n) { scale<<<(n + 127) / 128, 128>>>(d, s, n); }
