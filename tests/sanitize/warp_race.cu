// racecheck: a kernel with a warp reduction whose warps exchange partial
// results through shared memory without a __syncthreads(): every thread
// reads the slot the other warp writes (a hazard between warps that only
// a block barrier would order). The shuffles split the block's threads
// into warps of lanes, which racecheck sees as one phase.
#include <cstdio>
__global__ void pair_sums(const int *in, int *out) {
  __shared__ int part[64];
  int t = threadIdx.x;
  int v = in[t];
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
  part[t] = v;
  // __syncthreads() missing here.
  out[t] = v + part[(t + 32) % 64];
}
int main() {
  int h[64], r[64], *in, *out;
  for (int i = 0; i < 64; ++i) h[i] = i;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof h);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  pair_sums<<<1, 64>>>(in, out);
  cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < 64; ++i) bad += r[i] != 496 + 1520;
  printf("sync: %s, %d wrong\n", cudaGetErrorName(cudaDeviceSynchronize()), bad);
  return 0;
}
