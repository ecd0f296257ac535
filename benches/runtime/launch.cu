// Runtime micro-benchmarks: launch overhead of an empty kernel (1 block and
// many blocks), launch + synchronize round trips, allocation and the first
// copy into a fresh allocation, and cudaMemcpy bandwidth in both directions
// and device to device. Built by cucc; the empty kernel's device half comes
// from empty.cuir. Each figure is the median of several timed batches (or
// single copies), so that a moment of interference from other processes
// does not move it much.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

__global__ void empty() {}

static double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Median over `batches` of the time per iteration of `body` run `reps` times
// (then synchronised), in microseconds.
template <class F>
static double per_iteration_us(int batches, int reps, F body) {
  std::vector<double> t;
  for (int b = 0; b < batches; b++) {
    double t0 = now();
    for (int i = 0; i < reps; i++) body();
    cudaDeviceSynchronize();
    t.push_back((now() - t0) / reps * 1e6);
  }
  return median(t);
}

int main() {
  empty<<<1, 1>>>();
  empty<<<256, 32>>>();
  cudaDeviceSynchronize();
  printf("launch, 1 block, async (us/launch)        %8.2f\n",
         per_iteration_us(7, 4000, [] { empty<<<1, 32>>>(); }));
  printf("launch, 256 blocks, async (us/launch)     %8.2f\n",
         per_iteration_us(7, 400, [] { empty<<<256, 32>>>(); }));
  printf("launch + synchronize (us)                 %8.2f\n", per_iteration_us(7, 400, [] {
           empty<<<1, 32>>>();
           cudaDeviceSynchronize();
         }));
  printf("256-block launch + synchronize (us)       %8.2f\n", per_iteration_us(7, 400, [] {
           empty<<<256, 32>>>();
           cudaDeviceSynchronize();
         }));

  const size_t bytes = size_t(256) << 20;
  std::vector<char> host(bytes, 1);
  char *d1, *d2;
  double t0 = now();
  cudaMalloc(&d1, bytes);
  double t1 = now();
  cudaMemcpy(d1, host.data(), bytes, cudaMemcpyHostToDevice);
  double t2 = now();
  printf("cudaMalloc 256 MiB (ms)                   %8.2f\n", (t1 - t0) * 1e3);
  printf("first memcpy into it, host->device (GB/s) %8.2f\n", bytes / (t2 - t1) / 1e9);
  cudaMalloc(&d2, bytes);
  cudaMemset(d2, 0, bytes);  // touch every page before timing
  const int copies = 9;
  auto bandwidth = [&](void *dst, const void *src, cudaMemcpyKind kind) {
    std::vector<double> gbs;
    for (int i = 0; i < copies; i++) {
      double a = now();
      cudaMemcpy(dst, src, bytes, kind);
      gbs.push_back(bytes / (now() - a) / 1e9);
    }
    return median(gbs);
  };
  printf("memcpy host->device (GB/s)                %8.2f\n",
         bandwidth(d1, host.data(), cudaMemcpyHostToDevice));
  printf("memcpy device->host (GB/s)                %8.2f\n",
         bandwidth(host.data(), d1, cudaMemcpyDeviceToHost));
  printf("memcpy device->device (GB/s)              %8.2f\n",
         bandwidth(d2, d1, cudaMemcpyDeviceToDevice));
  cudaFree(d1);
  cudaFree(d2);
  return 0;
}
