#include <cstdio>
int main() {
  cudaDeviceProp p; cudaGetDeviceProperties(&p, 0);
  printf("sm=%d clock=%d overlap=%d mode=%d mp=%d warp=%d mem=%zu\n", p.multiProcessorCount, p.clockRate, p.deviceOverlap, p.computeMode, p.multiProcessorCount, p.warpSize, p.totalGlobalMem);
  printf("%s\n", sizeof(p) == 1008 ? "PASS" : "FAIL size");
  cudaThreadSynchronize();
  return sizeof(p) == 1008 && p.clockRate > 0 && p.deviceOverlap == 1 ? 0 : 1;
}
