// Runtime micro-benchmarks: launch overhead of an empty kernel (1 block and
// many blocks), launch + synchronize round trips, and cudaMemcpy bandwidth
// in both directions and device to device. Built by cucc; the empty kernel's
// device half comes from empty.cuir.
#include <chrono>
#include <cstdio>
#include <vector>

__global__ void empty() {}

static double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int main() {
  const int reps = 20000;
  empty<<<1, 1>>>();
  cudaDeviceSynchronize();
  double t0 = now();
  for (int i = 0; i < reps; i++) empty<<<1, 32>>>();
  cudaDeviceSynchronize();
  double t1 = now();
  printf("launch, 1 block, async (us/launch)        %8.2f\n", (t1 - t0) / reps * 1e6);
  t0 = now();
  for (int i = 0; i < reps / 10; i++) empty<<<256, 32>>>();
  cudaDeviceSynchronize();
  t1 = now();
  printf("launch, 256 blocks, async (us/launch)     %8.2f\n", (t1 - t0) / (reps / 10) * 1e6);
  t0 = now();
  for (int i = 0; i < reps / 10; i++) {
    empty<<<1, 32>>>();
    cudaDeviceSynchronize();
  }
  t1 = now();
  printf("launch + synchronize (us)                 %8.2f\n", (t1 - t0) / (reps / 10) * 1e6);

  const size_t bytes = size_t(256) << 20;
  std::vector<char> host(bytes, 1);
  char *d1, *d2;
  cudaMalloc(&d1, bytes);
  cudaMalloc(&d2, bytes);
  cudaMemcpy(d1, host.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemset(d2, 0, bytes);  // touch every page before timing
  const int copies = 8;
  t0 = now();
  for (int i = 0; i < copies; i++) cudaMemcpy(d1, host.data(), bytes, cudaMemcpyHostToDevice);
  t1 = now();
  printf("memcpy host->device (GB/s)                %8.2f\n", copies * bytes / (t1 - t0) / 1e9);
  t0 = now();
  for (int i = 0; i < copies; i++) cudaMemcpy(host.data(), d1, bytes, cudaMemcpyDeviceToHost);
  t1 = now();
  printf("memcpy device->host (GB/s)                %8.2f\n", copies * bytes / (t1 - t0) / 1e9);
  t0 = now();
  for (int i = 0; i < copies; i++) cudaMemcpy(d2, d1, bytes, cudaMemcpyDeviceToDevice);
  t1 = now();
  printf("memcpy device->device (GB/s)              %8.2f\n", copies * bytes / (t1 - t0) / 1e9);
  cudaFree(d1);
  cudaFree(d2);
  return 0;
}
