// Data-dependent writes: both arms store, and a one-armed store leaves
// the other elements as they were.
__global__ void clip(const double *a, double *out, double *neg, double lim) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double v = a[i];
  if (v > lim)
    out[i] = lim;
  else
    out[i] = v * 0.5;
  if (v < 0.0)
    neg[i] = v;
}
