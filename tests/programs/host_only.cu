#include <cstdio>
#include <vector>
int main() {
  int n = 1000;
  std::vector<float> h(n), back(n);
  for (int i = 0; i < n; i++) h[i] = i * 0.5f;
  float *d = nullptr;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess) { printf("malloc failed\n"); return 1; }
  cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(d, 0, 10 * sizeof(float));
  cudaMemcpy(back.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaError_t e = cudaMemcpy(back.data(), d + n, 8, cudaMemcpyDeviceToHost);
  printf("bad copy: %s\n", cudaGetErrorName(e));
  cudaDeviceProp p; cudaGetDeviceProperties(&p, 0);
  printf("device: %s, warp %d, max threads %d\n", p.name, p.warpSize, p.maxThreadsPerBlock);
  for (int i = 0; i < n; i++) if (back[i] != (i < 10 ? 0.f : h[i])) { printf("FAIL at %d\n", i); return 1; }
  cudaFree(d);
  printf("PASS\n");
  return 0;
}
