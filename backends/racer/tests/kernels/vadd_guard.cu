// The usual bounds guard: threads past n do nothing.
__global__ void vadd_guard(const double *a, const double *b, double *c,
                           int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}
