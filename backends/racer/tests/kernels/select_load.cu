// A read in one arm of a branch: read for every thread, used where taken.
__global__ void pick(const double *a, const double *b, double *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double v = a[i];
  if (v > 0.0)
    v = b[i] * 2.0;
  out[i] = v;
}
