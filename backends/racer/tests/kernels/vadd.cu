// Element-wise: two memory-unit streams in, one sorted stream out.
__global__ void vadd(const double *a, const double *b, double *c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = a[i] * 2.0 + b[i + 1];
}
