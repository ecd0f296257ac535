// racecheck: each thread reads its neighbour's shared slot without a
// __syncthreads() after the writes (a read-after-write hazard). On cucc,
// which runs a block's threads in order, only thread 0's result is wrong
// (it reads before thread 127 writes); memcheck stays silent.
#include <cstdio>
__global__ void rotate(const int *in, int *out) {
  __shared__ int buf[128];
  int t = threadIdx.x;
  buf[t] = in[t];
  // __syncthreads() missing here.
  out[t] = buf[(t + 127) % 128];
}
int main() {
  int h[128], r[128], *in, *out;
  for (int i = 0; i < 128; ++i) h[i] = i * 3;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof h);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  rotate<<<1, 128>>>(in, out);
  cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < 128; ++i) bad += r[i] != h[(i + 127) % 128];
  printf("sync: %s, %d wrong\n", cudaGetErrorName(cudaDeviceSynchronize()), bad);
  return 0;
}
