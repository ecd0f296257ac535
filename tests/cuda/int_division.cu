// Integer division and remainder where C leaves them undefined: by zero and
// MIN / -1. A GPU gives a value and carries on; these are the values NVIDIA
// GPUs give (docs/ir.md): x / 0 and x % 0 are all ones (-1 when signed),
// MIN / -1 = MIN and MIN % -1 = 0. Ordinary quotients are checked too, with
// divisors read from memory, passed as a parameter (loop-invariant) and
// constant. 64-bit division by zero is checked only with dividends of 2^32
// or more (or negative): for smaller ones nvcc's 32-bit fast path gives
// 0xFFFFFFFF (docs/ir.md).
#include <climits>
#include <cstdio>
#include "check.h"

// Quotients and remainders in separate kernels: when both of the same
// operands are computed, nvcc may derive x % y as x - (x / y) * y, whose value
// for y = 0 is x (docs/ir.md).
__global__ void quot32(const int *a, const int *b, int *q, unsigned *uq, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    q[i] = a[i] / b[i];
    uq[i] = (unsigned)a[i] / (unsigned)b[i];
  }
}

__global__ void rem32(const int *a, const int *b, int *r, unsigned *ur, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    r[i] = a[i] % b[i];
    ur[i] = (unsigned)a[i] % (unsigned)b[i];
  }
}

__global__ void quot64(const long long *a, const long long *b, long long *q,
                       unsigned long long *uq, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    q[i] = a[i] / b[i];
    uq[i] = (unsigned long long)a[i] / (unsigned long long)b[i];
  }
}

__global__ void rem64(const long long *a, const long long *b, long long *r,
                      unsigned long long *ur, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    r[i] = a[i] % b[i];
    ur[i] = (unsigned long long)a[i] % (unsigned long long)b[i];
  }
}

// One divisor for every thread, and constant ones.
__global__ void quot_param(const int *a, int d, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (int)((unsigned)(a[i] / d) + 3u * (unsigned)(a[i] / 7));
}

__global__ void rem_param(const int *a, int d, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (int)((unsigned)(a[i] % d) - 3u * (unsigned)(a[i] % -5));
}

static int sdiv32(int a, int b) {
  if (b == 0) return -1;
  if (b == -1) return (int)(0u - (unsigned)a);
  return a / b;
}
static int srem32(int a, int b) {
  if (b == 0) return -1;
  if (b == -1) return 0;
  return a % b;
}
static unsigned udiv32(unsigned a, unsigned b) { return b ? a / b : 0xffffffffu; }
static unsigned urem32(unsigned a, unsigned b) { return b ? a % b : 0xffffffffu; }
static long long sdiv64(long long a, long long b) {
  if (b == 0) return -1;
  if (b == -1) return (long long)(0ull - (unsigned long long)a);
  return a / b;
}
static long long srem64(long long a, long long b) {
  if (b == 0) return -1;
  if (b == -1) return 0;
  return a % b;
}
static unsigned long long udiv64(unsigned long long a, unsigned long long b) {
  return b ? a / b : ~0ull;
}
static unsigned long long urem64(unsigned long long a, unsigned long long b) {
  return b ? a % b : ~0ull;
}

int main() {
  const int n = 96;
  int a[n], b[n];
  long long la[n], lb[n];
  const int fixed[][2] = {{7, 0},          {-7, 0},      {0, 0},       {INT_MIN, -1},
                          {INT_MIN, 0},    {INT_MAX, -1}, {-7, 2},       {7, -2},
                          {100, 7},        {INT_MIN, 1},  {-1, -1},      {123456789, 1000},
                          {5, -1},         {INT_MAX, 0},  {INT_MIN, INT_MIN}, {-1, INT_MIN}};
  const int nfixed = sizeof(fixed) / sizeof(fixed[0]);
  unsigned s = 2024;
  for (int k = 0; k < n; ++k) {
    if (k < nfixed) {
      a[k] = fixed[k][0];
      b[k] = fixed[k][1];
    } else {
      a[k] = (int)lcg(s);
      b[k] = k % 9 == 0 ? 0 : (int)(lcg(s) >> (k % 29));
      if (k % 11 == 0) b[k] = -b[k];
    }
    la[k] = (long long)(((unsigned long long)(unsigned)a[k] << (k % 33)) ^ lcg(s));
    lb[k] = k % 5 == 0 ? 0 : k % 7 == 0 ? -1 : (long long)b[k] * (k % 3 + 1);
    if (lb[k] == 0 && la[k] >= 0 && la[k] < (1ll << 32)) la[k] += 1ll << 40;
  }
  la[1] = LLONG_MIN;
  lb[1] = -1;
  la[2] = LLONG_MIN;
  lb[2] = 0;

  int *da, *db, *dq, *dr, *dout;
  unsigned *duq, *dur;
  long long *dla, *dlb, *dlq, *dlr;
  unsigned long long *dluq, *dlur;
  cudaMalloc(&da, n * sizeof(int));
  cudaMalloc(&db, n * sizeof(int));
  cudaMalloc(&dq, n * sizeof(int));
  cudaMalloc(&dr, n * sizeof(int));
  cudaMalloc(&dout, n * sizeof(int));
  cudaMalloc(&duq, n * sizeof(unsigned));
  cudaMalloc(&dur, n * sizeof(unsigned));
  cudaMalloc(&dla, n * sizeof(long long));
  cudaMalloc(&dlb, n * sizeof(long long));
  cudaMalloc(&dlq, n * sizeof(long long));
  cudaMalloc(&dlr, n * sizeof(long long));
  cudaMalloc(&dluq, n * sizeof(unsigned long long));
  cudaMalloc(&dlur, n * sizeof(unsigned long long));
  cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice);
  cudaMemcpy(dla, la, sizeof la, cudaMemcpyHostToDevice);
  cudaMemcpy(dlb, lb, sizeof lb, cudaMemcpyHostToDevice);

  quot32<<<3, 32>>>(da, db, dq, duq, n);
  rem32<<<3, 32>>>(da, db, dr, dur, n);
  quot64<<<3, 32>>>(dla, dlb, dlq, dluq, n);
  rem64<<<3, 32>>>(dla, dlb, dlr, dlur, n);
  int q[n], r[n];
  unsigned uq[n], ur[n];
  long long lq[n], lr[n];
  unsigned long long luq[n], lur[n];
  cudaMemcpy(q, dq, sizeof q, cudaMemcpyDeviceToHost);
  cudaMemcpy(r, dr, sizeof r, cudaMemcpyDeviceToHost);
  cudaMemcpy(uq, duq, sizeof uq, cudaMemcpyDeviceToHost);
  cudaMemcpy(ur, dur, sizeof ur, cudaMemcpyDeviceToHost);
  cudaMemcpy(lq, dlq, sizeof lq, cudaMemcpyDeviceToHost);
  cudaMemcpy(lr, dlr, sizeof lr, cudaMemcpyDeviceToHost);
  cudaMemcpy(luq, dluq, sizeof luq, cudaMemcpyDeviceToHost);
  cudaMemcpy(lur, dlur, sizeof lur, cudaMemcpyDeviceToHost);

  int bad = 0;
  for (int k = 0; k < n; ++k) {
    unsigned ua = (unsigned)a[k], ub = (unsigned)b[k];
    unsigned long long lua = (unsigned long long)la[k], lub = (unsigned long long)lb[k];
    if (q[k] != sdiv32(a[k], b[k]) || r[k] != srem32(a[k], b[k]) || uq[k] != udiv32(ua, ub) ||
        ur[k] != urem32(ua, ub)) {
      if (bad++ < 10)
        printf("div32 %d: %d, %d: got %d %d %u %u, want %d %d %u %u\n", k, a[k], b[k], q[k], r[k],
               uq[k], ur[k], sdiv32(a[k], b[k]), srem32(a[k], b[k]), udiv32(ua, ub),
               urem32(ua, ub));
    }
    if (lq[k] != sdiv64(la[k], lb[k]) || lr[k] != srem64(la[k], lb[k]) ||
        luq[k] != udiv64(lua, lub) || lur[k] != urem64(lua, lub)) {
      if (bad++ < 10)
        printf("div64 %d: %lld, %lld: got %lld %lld %llu %llu, want %lld %lld %llu %llu\n", k,
               la[k], lb[k], lq[k], lr[k], luq[k], lur[k], sdiv64(la[k], lb[k]),
               srem64(la[k], lb[k]), udiv64(lua, lub), urem64(lua, lub));
    }
  }

  const int divisors[] = {0, -1, 7, -3};
  for (int d : divisors) {
    int out[n], out2[n];
    quot_param<<<3, 32>>>(da, d, dout, n);
    cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
    rem_param<<<3, 32>>>(da, d, dout, n);
    cudaMemcpy(out2, dout, sizeof out2, cudaMemcpyDeviceToHost);
    for (int k = 0; k < n; ++k) {
      int want = (int)((unsigned)sdiv32(a[k], d) + 3u * (unsigned)(a[k] / 7));
      int want2 = (int)((unsigned)srem32(a[k], d) - 3u * (unsigned)(a[k] % -5));
      if ((out[k] != want || out2[k] != want2) && bad++ < 10)
        printf("d=%d %d: a=%d got %d %d want %d %d\n", d, k, a[k], out[k], out2[k], want, want2);
    }
  }
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    printf("sync: %s\n", cudaGetErrorName(e));
    return 1;
  }
  return report("int_division", bad);
}
