// The simulated Snitch cluster as a CUDA device next to the CPU (run with
// CUCC_DEVICES=cpu,snitch): a CPU-device kernel prepares data, f64 axpy,
// relu and matmul kernels run on both devices and must agree bit for bit
// (explicit fma, so both compute the same fused operations in the same
// order), events time the Snitch kernels in simulated time, and a kernel
// the Snitch compiler rejects (an atomic) or whose data outgrows the TCDM
// fails its launch with a CUDA error instead of running on the CPU. Shared
// memory: a tiled matmul, a stencil in dynamic shared memory and a tree
// reduction agree bit for bit too; shared memory for eight cores that outgrows the TCDM is
// rejected.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#include "../include/check_or_return.h"

// Integer-to-float conversions: CPU-device work (the Snitch compiler
// takes none).
__global__ void init(double *x, double *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    x[i] = (double)((i * 37) % 101) / 8.0 - 6.0;
    y[i] = (double)((i * 13) % 29) / 4.0 - 3.0;
  }
}

__global__ void axpy(const double *x, double *y, double a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fma(a, x[i], y[i]);
}

__global__ void relu(const double *x, double *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fmax(x[i], 0.0);
}

// C (rows x n) = A (rows x k) . B (k x n): block i computes row i, thread j
// column j, the sum in a local.
__global__ void matmul(const double *A, const double *B, double *C, int n,
                       int k) {
  int i = blockIdx.x, j = threadIdx.x;
  double s = 0.0;
  for (int l = 0; l < k; l++) s = fma(A[i * k + l], B[l * n + j], s);
  C[i * n + j] = s;
}

// Shared memory. C (n x n) = A . B in 8 x 8 tiles staged in shared memory
// between barriers; the sum lives across them (cpuify keeps it in a
// per-thread array, which the Snitch places in the TCDM beside the tiles).
#define TILE 8
__global__ void matmul_tiled(const double *A, const double *B, double *C,
                             int n) {
  __shared__ double As[TILE][TILE], Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  double s = 0.0;
  for (int t = 0; t < n / TILE; t++) {
    As[ty][tx] = A[row * n + t * TILE + tx];
    Bs[ty][tx] = B[(t * TILE + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; k++) s = fma(As[ty][k], Bs[k][tx], s);
    __syncthreads();
  }
  C[row * n + col] = s;
}

// A 3-point stencil from a tile of 2 * blockDim.x elements in dynamic
// shared memory (in holds blockDim.x more elements than out).
__global__ void stencil(const double *in, double *out, double w0, double w1,
                        double w2) {
  extern __shared__ double tile[];
  int t = threadIdx.x, b = blockIdx.x * blockDim.x;
  tile[t] = in[b + t];
  tile[t + blockDim.x] = in[b + t + blockDim.x];
  __syncthreads();
  out[b + t] = fma(w2, tile[t + 2], fma(w1, tile[t + 1], w0 * tile[t]));
}

// A tree reduction per block: the halving loop runs unrolled on the
// Snitch, each `if (t < s)` splits the thread loop.
__global__ void block_sum(const double *in, double *out) {
  extern __shared__ double part[];
  int t = threadIdx.x;
  part[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) part[t] += part[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = part[0];
}

// 16 KiB of shared memory per block: eight cores' worth is the whole TCDM.
__global__ void big_reverse(const double *in, double *out) {
  __shared__ double tile[2048];
  int t = threadIdx.x, b = blockIdx.x * 2048;
  for (int j = 0; j < 32; j++) tile[t * 32 + j] = in[b + t * 32 + j];
  __syncthreads();
  for (int j = 0; j < 32; j++) out[b + t * 32 + j] = tile[2047 - t * 32 - j];
}

// An atomic: the Snitch compiler rejects it (the guard is decided: the
// atomic is the first construct it cannot take).
__global__ void count_threads(int *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(count, 1);
}

static int device_named(const char *prefix, int count) {
  for (int d = 0; d < count; d++) {
    cudaDeviceProp p;
    if (cudaGetDeviceProperties(&p, d) == cudaSuccess &&
        strncmp(p.name, prefix, strlen(prefix)) == 0)
      return d;
  }
  return -1;
}

// Runs axpy, relu and matmul on the current device into fresh outputs.
static int run_all(const double *x, const double *y0, double *y, double *r,
                   const double *A, const double *B, double *C, int n,
                   int rows, int cols, int k) {
  CHECK(cudaMemcpy(y, y0, n * sizeof(double), cudaMemcpyDeviceToDevice));
  axpy<<<(n + 127) / 128, 128>>>(x, y, 0.75, n);
  CHECK(cudaGetLastError());
  relu<<<(n + 63) / 64, 64>>>(y, r, n);
  CHECK(cudaGetLastError());
  matmul<<<rows, cols>>>(A, B, C, cols, k);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  return 0;
}

int main() {
  int count = 0;
  CHECK(cudaGetDeviceCount(&count));
  int snitch = device_named("Snitch", count);
  int cpu = -1;
  for (int d = 0; d < count; d++)
    if (d != snitch) cpu = d;
  EXPECT(snitch >= 0 && cpu >= 0,
         "%d devices, Snitch at %d, CPU at %d: run with CUCC_DEVICES=cpu,snitch",
         count, snitch, cpu);
  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, snitch));
  int clock_khz = 0;
  CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, snitch));
  EXPECT(p.multiProcessorCount == 8 && p.sharedMemPerBlock == 128 * 1024 &&
             clock_khz == 1000000,
         "Snitch properties: %d cores, %zu bytes shared, %d kHz",
         p.multiProcessorCount, p.sharedMemPerBlock, clock_khz);
  printf("device %d: %s, %d cores, %zu-byte TCDM, %d MHz\n", snitch, p.name,
         p.multiProcessorCount, p.sharedMemPerBlock, clock_khz / 1000);

  const int n = 1000, rows = 8, cols = 16, k = 32;
  double *x, *y0, *y[2], *r[2], *A, *B, *C[2];
  CHECK(cudaSetDevice(cpu));
  CHECK(cudaMalloc(&x, n * sizeof(double)));
  CHECK(cudaMalloc(&y0, n * sizeof(double)));
  CHECK(cudaMalloc(&A, rows * k * sizeof(double)));
  CHECK(cudaMalloc(&B, k * cols * sizeof(double)));
  for (int d = 0; d < 2; d++) {
    CHECK(cudaMalloc(&y[d], n * sizeof(double)));
    CHECK(cudaMalloc(&r[d], n * sizeof(double)));
    CHECK(cudaMalloc(&C[d], rows * cols * sizeof(double)));
  }
  init<<<(n + 255) / 256, 256>>>(x, y0, n);
  CHECK(cudaGetLastError());
  init<<<1, rows * k>>>(A, A, rows * k);  // A twice: y's pattern wins
  init<<<2, 256>>>(B, B, k * cols);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  // The same kernels on the CPU device, then on the Snitch device.
  if (run_all(x, y0, y[0], r[0], A, B, C[0], n, rows, cols, k)) return 1;
  CHECK(cudaSetDevice(snitch));
  int current = -1;
  CHECK(cudaGetDevice(&current));
  EXPECT(current == snitch, "current device %d", current);
  if (run_all(x, y0, y[1], r[1], A, B, C[1], n, rows, cols, k)) return 1;

  static double h[2][1000], hr[2][1000], hc[2][rows * cols];
  for (int d = 0; d < 2; d++) {
    CHECK(cudaMemcpy(h[d], y[d], sizeof h[d], cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hr[d], r[d], sizeof hr[d], cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hc[d], C[d], sizeof hc[d], cudaMemcpyDeviceToHost));
  }
  EXPECT(memcmp(h[0], h[1], sizeof h[0]) == 0, "axpy results differ");
  EXPECT(memcmp(hr[0], hr[1], sizeof hr[0]) == 0, "relu results differ");
  EXPECT(memcmp(hc[0], hc[1], sizeof hc[0]) == 0, "matmul results differ");
  // And they are right: spot checks against the host.
  double hx[1000], hy0[1000];
  CHECK(cudaMemcpy(hx, x, sizeof hx, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hy0, y0, sizeof hy0, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    double want = fma(0.75, hx[i], hy0[i]);
    EXPECT(h[1][i] == want, "axpy[%d] = %g, want %g", i, h[1][i], want);
    EXPECT(hr[1][i] == fmax(want, 0.0), "relu[%d]", i);
  }
  printf("axpy, relu (%d elements) and matmul (%dx%d . %dx%d) agree with "
         "the CPU device\n",
         n, rows, k, k, cols);

  // Events on the Snitch device report simulated time: the same launch
  // twice takes exactly twice as long.
  cudaEvent_t e0, e1, e2;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  CHECK(cudaEventCreate(&e2));
  CHECK(cudaEventRecord(e0, 0));
  matmul<<<rows, cols>>>(A, B, C[1], cols, k);
  CHECK(cudaEventRecord(e1, 0));
  matmul<<<rows, cols>>>(A, B, C[1], cols, k);
  CHECK(cudaEventRecord(e2, 0));
  CHECK(cudaEventSynchronize(e2));
  float t1 = 0, t2 = 0;
  CHECK(cudaEventElapsedTime(&t1, e0, e1));
  CHECK(cudaEventElapsedTime(&t2, e0, e2));
  EXPECT(t1 > 0 && fabs(t2 - 2 * t1) <= 1e-6 * t2,
         "simulated times %g and %g ms", t1, t2);
  printf("matmul on the Snitch: %.0f simulated cycles at %d MHz\n",
         t1 * 1e-3 * clock_khz * 1e3, clock_khz / 1000);

  // A CPU-device kernel consumes the Snitch's output.
  CHECK(cudaSetDevice(cpu));
  relu<<<(n + 63) / 64, 64>>>(y[1], r[0], n);
  CHECK(cudaMemcpy(hr[0], r[0], sizeof hr[0], cudaMemcpyDeviceToHost));
  EXPECT(memcmp(hr[0], hr[1], sizeof hr[0]) == 0, "CPU relu of Snitch axpy");

  // Rejected: an atomic. The launch fails; nothing runs on the CPU.
  int *cnt;
  CHECK(cudaMalloc(&cnt, sizeof(int)));
  CHECK(cudaMemset(cnt, 0, sizeof(int)));
  CHECK(cudaSetDevice(snitch));
  count_threads<<<(n + 127) / 128, 128>>>(cnt, n);
  cudaError_t e = cudaGetLastError();
  EXPECT(e == cudaErrorNoKernelImageForDevice, "atomic kernel: %s",
         cudaGetErrorName(e));
  int host_cnt = -1;
  CHECK(cudaMemcpy(&host_cnt, cnt, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT(host_cnt == 0, "the rejected kernel ran: count %d", host_cnt);
  CHECK(cudaSetDevice(cpu));
  count_threads<<<(n + 127) / 128, 128>>>(cnt, n);
  CHECK(cudaMemcpy(&host_cnt, cnt, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT(host_cnt == n, "CPU count %d, want %d", host_cnt, n);
  printf("atomic kernel rejected on the Snitch (%s), runs on the CPU\n",
         cudaGetErrorName(e));

  // Shared memory: the tiled matmul (static tiles, barriers) and the
  // stencil (dynamic shared memory) on both devices, bit for bit.
  {
    const int mn = 32, sn = 512, sb = 64;
    const size_t mbytes = mn * mn * sizeof(double);
    double *ma, *mb, *mc[2], *sx, *sy[2], *bs[2];
    CHECK(cudaSetDevice(cpu));
    CHECK(cudaMalloc(&ma, mbytes));
    CHECK(cudaMalloc(&mb, mbytes));
    CHECK(cudaMalloc(&sx, (sn + sb) * sizeof(double)));
    for (int d = 0; d < 2; d++) {
      CHECK(cudaMalloc(&mc[d], mbytes));
      CHECK(cudaMalloc(&sy[d], sn * sizeof(double)));
      CHECK(cudaMalloc(&bs[d], sn / sb * sizeof(double)));
    }
    init<<<(mn * mn + 255) / 256, 256>>>(ma, mb, mn * mn);
    init<<<(sn + sb + 255) / 256, 256>>>(sx, sx, sn + sb);
    CHECK(cudaDeviceSynchronize());
    for (int d = 0; d < 2; d++) {
      CHECK(cudaSetDevice(d == 0 ? cpu : snitch));
      matmul_tiled<<<dim3(mn / TILE, mn / TILE), dim3(TILE, TILE)>>>(
          ma, mb, mc[d], mn);
      CHECK(cudaGetLastError());
      stencil<<<sn / sb, sb, 2 * sb * sizeof(double)>>>(sx, sy[d], 0.25,
                                                       -1.5, 0.75);
      CHECK(cudaGetLastError());
      block_sum<<<sn / sb, sb, sb * sizeof(double)>>>(sx, bs[d]);
      CHECK(cudaGetLastError());
      CHECK(cudaDeviceSynchronize());
    }
    static double hm[2][mn * mn], hs[2][sn], ha[mn * mn], hb[mn * mn],
        hin[sn + sb], hbs[2][sn / sb];
    for (int d = 0; d < 2; d++) {
      CHECK(cudaMemcpy(hm[d], mc[d], mbytes, cudaMemcpyDeviceToHost));
      CHECK(cudaMemcpy(hs[d], sy[d], sizeof hs[d], cudaMemcpyDeviceToHost));
      CHECK(cudaMemcpy(hbs[d], bs[d], sizeof hbs[d], cudaMemcpyDeviceToHost));
    }
    CHECK(cudaMemcpy(ha, ma, mbytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hb, mb, mbytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hin, sx, sizeof hin, cudaMemcpyDeviceToHost));
    EXPECT(memcmp(hm[0], hm[1], mbytes) == 0, "tiled matmul results differ");
    EXPECT(memcmp(hs[0], hs[1], sizeof hs[0]) == 0, "stencil results differ");
    for (int i = 0; i < mn; i++)
      for (int j = 0; j < mn; j++) {
        double want = 0.0;
        for (int l = 0; l < mn; l++)
          want = fma(ha[i * mn + l], hb[l * mn + j], want);
        EXPECT(hm[1][i * mn + j] == want, "tiled matmul [%d][%d] = %g, want %g",
               i, j, hm[1][i * mn + j], want);
      }
    for (int i = 0; i < sn; i++) {
      double want = fma(0.75, hin[i + 2], fma(-1.5, hin[i + 1], 0.25 * hin[i]));
      EXPECT(hs[1][i] == want, "stencil[%d] = %g, want %g", i, hs[1][i], want);
    }
    printf("shared memory: tiled matmul (%dx%d) agrees with the CPU device\n",
           mn, mn);
    printf("shared memory: stencil (%d, dynamic) agrees with the CPU device\n",
           sn);
    EXPECT(memcmp(hbs[0], hbs[1], sizeof hbs[0]) == 0,
           "block sums differ");
    for (int b = 0; b < sn / sb; b++) {
      double part[sb];
      for (int t = 0; t < sb; t++) part[t] = hin[b * sb + t];
      for (int s = sb / 2; s > 0; s >>= 1)
        for (int t = 0; t < s; t++) part[t] += part[t + s];
      EXPECT(hbs[1][b] == part[0], "block_sum[%d] = %g, want %g", b,
             hbs[1][b], part[0]);
    }
    printf("shared memory: tree reduction (%d blocks) agrees with the CPU "
           "device\n",
           sn / sb);

    // Shared memory for eight cores' blocks that outgrows the TCDM.
    double *bin, *bout;
    CHECK(cudaMalloc(&bin, 8 * 2048 * sizeof(double)));
    CHECK(cudaMalloc(&bout, 8 * 2048 * sizeof(double)));
    CHECK(cudaSetDevice(snitch));
    big_reverse<<<8, 64>>>(bin, bout);
    cudaError_t be = cudaGetLastError();
    EXPECT(be == cudaErrorLaunchOutOfResources, "oversized shared memory: %s",
           cudaGetErrorName(be));
    CHECK(cudaDeviceSynchronize());
    printf("8 x 16 KiB of shared memory rejected on the Snitch (%s)\n",
           cudaGetErrorName(be));
  }

  // Too big for the TCDM: 2 x 80 KiB.
  const int big = 10240;
  double *bx, *by;
  CHECK(cudaMalloc(&bx, big * sizeof(double)));
  CHECK(cudaMalloc(&by, big * sizeof(double)));
  CHECK(cudaSetDevice(snitch));
  axpy<<<big / 128, 128>>>(bx, by, 2.0, big);
  e = cudaGetLastError();
  EXPECT(e == cudaErrorLaunchOutOfResources, "oversized launch: %s",
         cudaGetErrorName(e));
  CHECK(cudaDeviceSynchronize());
  printf("160 KiB of buffers rejected on the Snitch (%s)\n",
         cudaGetErrorName(e));

  printf("PASS snitch_device\n");
  return 0;
}
