// Operations C leaves undefined or defines differently from a GPU, with the
// values NVIDIA GPUs give (docs/ir.md): shifts by the width or more give 0,
// or the sign for arithmetic right shifts (PTX shl/shr clamp the amount;
// nvcc compiles a shift by a variable to them); out-of-range float to int
// conversions saturate and NaN converts to 0 (cvt.rzi); fminf/fmaxf with
// one NaN give the other operand; funnel shifts mask (_l, _r) or clamp
// (_lc, _rc) their amount. The shift amounts come from memory, as in
// Rodinia's huffman, which shifts a 32-bit word by 32.
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include "check.h"

__global__ void shifts32(const unsigned *x, const int *n, unsigned *out, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) {
    unsigned v = x[i];
    int s = n[i];
    out[5 * i] = v << s;
    out[5 * i + 1] = v >> s;
    out[5 * i + 2] = (unsigned)((int)v >> s);
    // A rotate written with two shifts: s = 0 shifts by 32.
    unsigned r = s & 31;
    out[5 * i + 3] = (v << r) | (v >> (32 - r));
    // huffman's packing: the low part of a code split across two words.
    out[5 * i + 4] = (v << (32 - r)) ^ (v >> r);
  }
}

__global__ void shifts64(const unsigned long long *x, const int *n, unsigned long long *out,
                         int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) {
    unsigned long long v = x[i];
    int s = n[i];
    out[3 * i] = v << s;
    out[3 * i + 1] = v >> s;
    out[3 * i + 2] = (unsigned long long)((long long)v >> s);
  }
}

__global__ void float_to_int(const float *f, const double *d, int *out, long long *lout,
                             int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) {
    out[4 * i] = (int)f[i];
    out[4 * i + 1] = (int)(unsigned)f[i];
    out[4 * i + 2] = (int)d[i];
    out[4 * i + 3] = __float2int_rn(f[i]);
    lout[2 * i] = (long long)d[i];
    lout[2 * i + 1] = (long long)(unsigned long long)d[i];
  }
}

__global__ void min_max(const float *a, const float *b, float *out, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) {
    out[4 * i] = fminf(a[i], b[i]);
    out[4 * i + 1] = fmaxf(a[i], b[i]);
    out[4 * i + 2] = min(a[i], b[i]);
    out[4 * i + 3] = (float)fmax((double)a[i], (double)b[i]);
  }
}

__global__ void funnel(const unsigned *lo, const unsigned *hi, const int *n, unsigned *out,
                       int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) {
    out[4 * i] = __funnelshift_l(lo[i], hi[i], n[i]);
    out[4 * i + 1] = __funnelshift_lc(lo[i], hi[i], n[i]);
    out[4 * i + 2] = __funnelshift_r(lo[i], hi[i], n[i]);
    out[4 * i + 3] = __funnelshift_rc(lo[i], hi[i], n[i]);
  }
}

// Host references, written without C's undefined cases.
static unsigned shl32(unsigned v, int s) { return (unsigned)s >= 32 ? 0 : v << s; }
static unsigned shr32(unsigned v, int s) { return (unsigned)s >= 32 ? 0 : v >> s; }
static unsigned sar32(unsigned v, int s) {
  int x = (int)v;
  return (unsigned)((unsigned)s >= 32 ? (x < 0 ? -1 : 0) : x >> s);
}
static unsigned long long shl64(unsigned long long v, int s) {
  return (unsigned)s >= 64 ? 0 : v << s;
}
static unsigned long long shr64(unsigned long long v, int s) {
  return (unsigned)s >= 64 ? 0 : v >> s;
}
static unsigned long long sar64(unsigned long long v, int s) {
  long long x = (long long)v;
  return (unsigned long long)((unsigned)s >= 64 ? (x < 0 ? -1 : 0) : x >> s);
}
// x toward zero, saturated to [lo, hi]; NaN gives 0.
static long long sat(double x, long long lo, long long hi) {
  if (x != x) return 0;
  if (x <= (double)lo) return lo;
  if (x >= (double)hi) return hi;
  return (long long)x;
}
static unsigned long long usat64(double x) {
  if (x != x || x <= 0) return 0;
  if (x >= 18446744073709551615.0) return ~0ull;
  return (unsigned long long)x;
}
static unsigned fsh(unsigned lo, unsigned hi, unsigned s, bool left, bool clamp) {
  unsigned k = clamp ? (s > 32 ? 32 : s) : (s & 31);
  unsigned long long v = ((unsigned long long)hi << 32) | lo;
  return left ? (unsigned)((v << k) >> 32) : (unsigned)(v >> k);
}
static bool same_float(float a, float b) { return memcmp(&a, &b, sizeof a) == 0 || (a != a && b != b); }

int main() {
  const int n = 64;
  unsigned x[n], lo[n], hi[n];
  int amt[n];
  unsigned long long lx[n];
  unsigned s = 7;
  for (int k = 0; k < n; ++k) {
    x[k] = k % 4 == 0 ? 0x80000001u : lcg(s);
    lo[k] = lcg(s);
    hi[k] = lcg(s);
    lx[k] = ((unsigned long long)lcg(s) << 32) | lcg(s);
    if (k % 3 == 0) lx[k] |= 1ull << 63;
  }
  // Amounts: every one from 0 to 40, around 64, and negative ones.
  for (int k = 0; k < n; ++k) amt[k] = k <= 40 ? k : k < 56 ? 20 + k : -(k - 55);
  amt[41] = INT_MIN;
  amt[42] = 1000;

  unsigned *dx, *dlo, *dhi, *dout;
  int *damt;
  unsigned long long *dlx, *dlout;
  cudaMalloc(&dx, sizeof x);
  cudaMalloc(&dlo, sizeof lo);
  cudaMalloc(&dhi, sizeof hi);
  cudaMalloc(&damt, sizeof amt);
  cudaMalloc(&dlx, sizeof lx);
  cudaMalloc(&dout, 5 * n * sizeof(unsigned));
  cudaMalloc(&dlout, 3 * n * sizeof(unsigned long long));
  cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice);
  cudaMemcpy(dlo, lo, sizeof lo, cudaMemcpyHostToDevice);
  cudaMemcpy(dhi, hi, sizeof hi, cudaMemcpyHostToDevice);
  cudaMemcpy(damt, amt, sizeof amt, cudaMemcpyHostToDevice);
  cudaMemcpy(dlx, lx, sizeof lx, cudaMemcpyHostToDevice);

  int bad = 0;
  unsigned out[5 * n];
  shifts32<<<2, 32>>>(dx, damt, dout, n);
  cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
  for (int k = 0; k < n; ++k) {
    unsigned v = x[k], r = (unsigned)amt[k] & 31;
    unsigned want[5] = {shl32(v, amt[k]), shr32(v, amt[k]), sar32(v, amt[k]),
                        shl32(v, r) | shr32(v, 32 - r), shl32(v, 32 - r) ^ shr32(v, r)};
    for (int j = 0; j < 5; ++j)
      if (out[5 * k + j] != want[j] && bad++ < 10)
        printf("shifts32 %d.%d: %#x by %d: got %#x want %#x\n", k, j, v, amt[k], out[5 * k + j],
               want[j]);
  }

  unsigned long long lout[3 * n];
  shifts64<<<2, 32>>>(dlx, damt, dlout, n);
  cudaMemcpy(lout, dlout, sizeof lout, cudaMemcpyDeviceToHost);
  for (int k = 0; k < n; ++k) {
    unsigned long long want[3] = {shl64(lx[k], amt[k]), shr64(lx[k], amt[k]),
                                  sar64(lx[k], amt[k])};
    for (int j = 0; j < 3; ++j)
      if (lout[3 * k + j] != want[j] && bad++ < 10)
        printf("shifts64 %d.%d: %#llx by %d: got %#llx want %#llx\n", k, j, lx[k], amt[k],
               lout[3 * k + j], want[j]);
  }

  unsigned fout[4 * n];
  funnel<<<2, 32>>>(dlo, dhi, damt, dout, n);
  cudaMemcpy(fout, dout, sizeof fout, cudaMemcpyDeviceToHost);
  for (int k = 0; k < n; ++k) {
    unsigned a = (unsigned)amt[k];
    unsigned want[4] = {fsh(lo[k], hi[k], a, true, false), fsh(lo[k], hi[k], a, true, true),
                        fsh(lo[k], hi[k], a, false, false), fsh(lo[k], hi[k], a, false, true)};
    for (int j = 0; j < 4; ++j)
      if (fout[4 * k + j] != want[j] && bad++ < 10)
        printf("funnel %d.%d: by %d: got %#x want %#x\n", k, j, amt[k], fout[4 * k + j], want[j]);
  }

  const int m = 16;
  const float fv[m] = {NAN,   INFINITY, -INFINITY, 3e9f,  -3e9f,  2.5f, -2.5f, -1.5f,
                       5e9f,  0.0f,     -0.0f,     1e20f, -1e20f, 3.5f, 1e-3f, -0.7f};
  const double dv[m] = {NAN,   INFINITY, -INFINITY, 3e9,   -3e9,  2.5,   -2.5,  -1.5,
                        1e19,  2e19,     -1e19,     1e300, -0.0,  9.3e18, 4e18, -9.3e18};
  float *df, *dfb, *dfo;
  double *dd;
  int *dio;
  long long *dlo64;
  cudaMalloc(&df, sizeof fv);
  cudaMalloc(&dfb, sizeof fv);
  cudaMalloc(&dfo, 4 * m * sizeof(float));
  cudaMalloc(&dd, sizeof dv);
  cudaMalloc(&dio, 4 * m * sizeof(int));
  cudaMalloc(&dlo64, 2 * m * sizeof(long long));
  cudaMemcpy(df, fv, sizeof fv, cudaMemcpyHostToDevice);
  cudaMemcpy(dd, dv, sizeof dv, cudaMemcpyHostToDevice);
  float_to_int<<<1, m>>>(df, dd, dio, dlo64, m);
  int io[4 * m];
  long long lo64[2 * m];
  cudaMemcpy(io, dio, sizeof io, cudaMemcpyDeviceToHost);
  cudaMemcpy(lo64, dlo64, sizeof lo64, cudaMemcpyDeviceToHost);
  for (int k = 0; k < m; ++k) {
    float f = fv[k];
    int want[4] = {(int)sat(f, INT_MIN, INT_MAX), (int)(unsigned)sat(f, 0, UINT_MAX),
                   (int)sat(dv[k], INT_MIN, INT_MAX), (int)sat(rintf(f), INT_MIN, INT_MAX)};
    for (int j = 0; j < 4; ++j)
      if (io[4 * k + j] != want[j] && bad++ < 10)
        printf("float_to_int %d.%d: %g %g: got %d want %d\n", k, j, f, dv[k], io[4 * k + j],
               want[j]);
    long long lwant[2] = {sat(dv[k], LLONG_MIN, LLONG_MAX),
                          (long long)usat64(dv[k])};
    for (int j = 0; j < 2; ++j)
      if (lo64[2 * k + j] != lwant[j] && bad++ < 10)
        printf("double_to_ll %d.%d: %g: got %lld want %lld\n", k, j, dv[k], lo64[2 * k + j],
               lwant[j]);
  }

  // min/max: NaN on either side, both, signed zeros kept apart from NaN.
  const float fa[m] = {NAN, 1.0f, NAN, -INFINITY, 2.0f,  -3.0f, NAN,  0.5f,
                       7.0f, NAN, -1.0f, INFINITY, 1e-30f, NAN,  4.0f, -4.0f};
  const float fb[m] = {1.0f, NAN, NAN, NAN,  -2.0f, 3.0f, -INFINITY, 0.25f,
                       NAN,  -7.0f, -1.5f, 2.0f, -1e-30f, 8.0f, NAN, 4.0f};
  cudaMemcpy(df, fa, sizeof fa, cudaMemcpyHostToDevice);
  cudaMemcpy(dfb, fb, sizeof fb, cudaMemcpyHostToDevice);
  min_max<<<1, m>>>(df, dfb, dfo, m);
  float fo[4 * m];
  cudaMemcpy(fo, dfo, sizeof fo, cudaMemcpyDeviceToHost);
  for (int k = 0; k < m; ++k) {
    float a = fa[k], b = fb[k];
    float mn = a != a ? b : b != b ? a : a < b ? a : b;
    float mx = a != a ? b : b != b ? a : a > b ? a : b;
    float want[4] = {mn, mx, mn, mx};
    for (int j = 0; j < 4; ++j)
      if (!same_float(fo[4 * k + j], want[j]) && bad++ < 10)
        printf("min_max %d.%d: %g %g: got %g want %g\n", k, j, a, b, fo[4 * k + j], want[j]);
  }

  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    printf("sync: %s\n", cudaGetErrorName(e));
    return 1;
  }
  return report("gpu_semantics", bad);
}
