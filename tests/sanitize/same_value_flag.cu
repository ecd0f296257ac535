// racecheck: every thread whose value is odd sets a shared flag to 1 with
// no barrier between the writes: a write-after-write hazard whose outcome
// does not depend on the order (a warning, not an error).
#include <cstdio>
__global__ void any_odd(const int *in, int *out) {
  __shared__ int flag;
  if (threadIdx.x == 0) flag = 0;
  __syncthreads();
  if (in[threadIdx.x] & 1) flag = 1;
  __syncthreads();
  if (threadIdx.x == 0) *out = flag;
}
int main() {
  int h[64], r = -1, *in, *out;
  for (int i = 0; i < 64; ++i) h[i] = i;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof r);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  any_odd<<<1, 64>>>(in, out);
  cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost);
  printf("flag %d\n", r);
  return 0;
}
