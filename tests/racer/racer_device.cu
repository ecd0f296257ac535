// The simulated RACER array processor as a CUDA device next to the CPU
// (run with CUCC_DEVICES=cpu,racer): the thesis' Mandelbrot kernel (double
// precision, `iter < 200 && len < 16`) over a 64 x 48 viewport and 100
// generations of the Game of Life run on both devices and must agree bit
// for bit; events time the RACER work in simulated time; a kernel the
// RACER lowering rejects (an atomic) fails its launch with a CUDA error
// instead of running on the CPU.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#include "../include/check_or_return.h"

// Rák's Mandelbrot kernel: one thread per pixel, row-major.
__global__ void mandelbrot(int *out, double x0, double y0, double dx,
                           double dy, int width) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double x = x0 + (i % width) * dx;
  double y = y0 + (i / width) * dy;
  double z1 = 0, z2 = 0;
  int iter = 0;
  double len;
  do {
    double a = z1 * z1 - z2 * z2 + x;
    double b = 2 * z1 * z2 + y;
    z1 = a;
    z2 = b;
    len = z1 * z1 + z2 * z2;
    iter++;
  } while (iter < 200 && len < 16);
  out[i] = iter;
}

// One Game of Life generation on a grid stored with a dead border (`wp`
// cells a padded row; thread t computes padded cell t + wp + 1), written
// plainly (backends/racer/tests/kernels/life.cu): its stream graph needs
// two 4 x 4 blocks.
__global__ void life(const int *in, int *out, int wp, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    int i = t + wp + 1;
    int s = in[i - wp - 1] + in[i - wp] + in[i - wp + 1] + in[i - 1] +
            in[i + 1] + in[i + wp - 1] + in[i + wp] + in[i + wp + 1];
    int x = in[i];
    int c = i % wp;
    int alive = (s == 3 || (s == 2 && x == 1)) ? 1 : 0;
    out[i] = (c == 0 || c == wp - 1) ? 0 : alive;
  }
}

// Not a stream program: the RACER lowering rejects the atomic.
__global__ void count_alive(const int *cells, int *total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && cells[i]) atomicAdd(total, 1);
}

static int device_named(const char *part, int count) {
  for (int d = 0; d < count; d++) {
    cudaDeviceProp p;
    if (cudaGetDeviceProperties(&p, d) == cudaSuccess && strstr(p.name, part))
      return d;
  }
  return -1;
}

enum { W = 64, H = 48, GW = 24, GH = 16, GENS = 100 };
enum { WP = GW + 2, CELLS = (GH + 2) * WP, N = GH * WP - 2 };

// Mandelbrot on the current device; the counts in `iters` (host).
static int run_mandelbrot(int *iters) {
  int *d_iters;
  CHECK(cudaMalloc(&d_iters, W * H * sizeof(int)));
  mandelbrot<<<W * H / 64, 64>>>(d_iters, -3.0, -2.0, 5.0 / W, 4.0 / H, W);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(iters, d_iters, W * H * sizeof(int),
                   cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d_iters));
  return 0;
}

// 100 Life generations from `start` on the current device; the result in
// `grid` (host).
static int run_life(int *grid, const int *start) {
  int *cells[2];
  for (int k = 0; k < 2; k++) {
    CHECK(cudaMalloc(&cells[k], CELLS * sizeof(int)));
    CHECK(cudaMemset(cells[k], 0, CELLS * sizeof(int)));
  }
  CHECK(cudaMemcpy(cells[0], start, CELLS * sizeof(int),
                   cudaMemcpyHostToDevice));
  for (int g = 0; g < GENS; g++) {
    life<<<(N + 31) / 32, 32>>>(cells[g % 2], cells[(g + 1) % 2], WP, N);
    CHECK(cudaGetLastError());
  }
  CHECK(cudaMemcpy(grid, cells[GENS % 2], CELLS * sizeof(int),
                   cudaMemcpyDeviceToHost));
  CHECK(cudaFree(cells[0]));
  CHECK(cudaFree(cells[1]));
  return 0;
}

int main() {
  int count = 0;
  CHECK(cudaGetDeviceCount(&count));
  int racer = device_named("RACER", count);
  int cpu = device_named("CPU", count);
  if (cpu < 0)
    for (int d = 0; d < count; d++)
      if (d != racer && device_named("Snitch", count) != d) cpu = d;
  EXPECT(racer >= 0 && cpu >= 0,
         "%d devices, RACER at %d, CPU at %d: run with CUCC_DEVICES=cpu,racer",
         count, racer, cpu);
  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, racer));
  int clock_khz = 0;
  CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, racer));
  EXPECT(p.multiProcessorCount == 64 && clock_khz == 700000,
         "RACER properties: %d blocks, %d kHz", p.multiProcessorCount,
         clock_khz);
  printf("device %d: %s, %d blocks, %d MHz\n", racer, p.name,
         p.multiProcessorCount, clock_khz / 1000);

  static int start[CELLS], iters[2][W * H], grid[2][CELLS];
  unsigned s = 12345;
  for (int r = 1; r <= GH; r++)
    for (int c = 1; c <= GW; c++) {
      s = s * 1103515245u + 12345u;
      start[r * WP + c] = (s >> 16) % 3 == 0;
    }

  CHECK(cudaSetDevice(cpu));
  if (run_mandelbrot(iters[0]) || run_life(grid[0], start)) return 1;
  CHECK(cudaSetDevice(racer));
  cudaEvent_t e0, e1, e2;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  CHECK(cudaEventCreate(&e2));
  CHECK(cudaEventRecord(e0));
  if (run_mandelbrot(iters[1])) return 1;
  CHECK(cudaEventRecord(e1));
  CHECK(cudaEventSynchronize(e1));
  long total = 0;
  for (int i = 0; i < W * H; i++) {
    EXPECT(iters[0][i] == iters[1][i], "pixel %d: CPU %d, RACER %d", i,
           iters[0][i], iters[1][i]);
    total += iters[1][i];
  }
  EXPECT(total > W * H, "iterations %ld", total);
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, e0, e1));
  EXPECT(ms > 0, "simulated time %f ms", ms);
  printf("Mandelbrot: RACER matches the CPU (%ld iterations) in %.3f us "
         "simulated\n",
         total, ms * 1000.0);

  if (run_life(grid[1], start)) return 1;
  CHECK(cudaEventRecord(e2));
  CHECK(cudaEventSynchronize(e2));
  long alive = 0;
  for (int i = 0; i < CELLS; i++) {
    EXPECT(grid[0][i] == grid[1][i], "cell %d: CPU %d, RACER %d", i,
           grid[0][i], grid[1][i]);
    alive += grid[1][i];
  }
  EXPECT(alive > 0, "alive %ld", alive);
  CHECK(cudaEventElapsedTime(&ms, e1, e2));
  EXPECT(ms > 0, "simulated time %f ms", ms);
  printf("Life: RACER matches the CPU (%ld cells alive after %d "
         "generations) in %.3f us simulated\n",
         alive, GENS, ms * 1000.0);

  // A kernel the lowering rejects fails its launch; it does not run on
  // the CPU.
  int *cells, *counter;
  CHECK(cudaMalloc(&cells, CELLS * sizeof(int)));
  CHECK(cudaMalloc(&counter, sizeof(int)));
  CHECK(cudaMemset(counter, 0, sizeof(int)));
  count_alive<<<(CELLS + 63) / 64, 64>>>(cells, counter, CELLS);
  cudaError_t e = cudaGetLastError();
  EXPECT(e == cudaErrorNoKernelImageForDevice, "rejected launch: %s",
         cudaGetErrorName(e));
  CHECK(cudaDeviceSynchronize());
  printf("PASS racer_device\n");
  return 0;
}
