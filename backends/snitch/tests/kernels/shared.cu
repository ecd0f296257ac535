// Kernels with shared memory for the Snitch compiler's tests
// (tests/local_memory.rs): shared.cuir is `cucc --emit=ir shared.cu`, shared.ptx `nvcc -ptx -arch=sm_80 shared.cu`.
#define T 8

// C = A . B (n x n, n a multiple of T), tiles staged in shared memory.
__global__ void matmul_tiled(const double *A, const double *B, double *C, int n) {
  __shared__ double As[T][T], Bs[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  double s = 0.0;
  for (int t = 0; t < n / T; t++) {
    As[ty][tx] = A[row * n + t * T + tx];
    Bs[ty][tx] = B[(t * T + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < T; k++) s = fma(As[ty][k], Bs[k][tx], s);
    __syncthreads();
  }
  C[row * n + col] = s;
}

// A 3-point stencil over a tile of 2 * blockDim.x elements in dynamic
// shared memory (in holds n + blockDim.x elements).
__global__ void stencil(const double *in, double *out, double w0, double w1, double w2) {
  extern __shared__ double tile[];
  int t = threadIdx.x, b = blockIdx.x * blockDim.x;
  tile[t] = in[b + t];
  tile[t + blockDim.x] = in[b + t + blockDim.x];
  __syncthreads();
  out[b + t] = fma(w2, tile[t + 2], fma(w1, tile[t + 1], w0 * tile[t]));
}

// Each block of 64 reverses its slice through shared memory.
__global__ void reverse(const double *in, double *out) {
  __shared__ double tile[64];
  int t = threadIdx.x, b = blockIdx.x * 64;
  tile[t] = in[b + t];
  __syncthreads();
  out[b + t] = tile[63 - t];
}

// A tree reduction: its `if (t < s)` is decided per thread at run time.
__global__ void block_sum(const double *in, double *out) {
  __shared__ double part[64];
  int t = threadIdx.x;
  part[t] = in[blockIdx.x * 64 + t];
  __syncthreads();
  for (int s = 32; s > 0; s >>= 1) {
    if (t < s) part[t] += part[t + s];
    __syncthreads();
  }
  out[blockIdx.x] = part[0];
}

// A gather through shared memory: the index is data.
__global__ void gather(const int *idx, const double *in, double *out) {
  __shared__ double tile[64];
  int t = threadIdx.x;
  tile[t] = in[t];
  __syncthreads();
  out[t] = tile[idx[t] & 63];
}

// Even threads only: a guard that changes from one thread to the next.
__global__ void evens(const double *in, double *out) {
  __shared__ double tile[64];
  int t = threadIdx.x;
  tile[t] = in[t];
  __syncthreads();
  if (t % 2 == 0) out[t] = tile[t + 1];
}
