// Two do-while loops. `countdown`'s first test depends on memory, so the
// body must run before it; `series`'s holds for its initial values, so it
// runs test-first, with `w` (used after the loop, advanced from `z`, which
// is not) on a lane of its own and `k` advanced after the split.
__global__ void countdown(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = in[i];
  int k = 0;
  do {
    x = x - 3;
    k++;
  } while (x > 0);
  out[i] = k;
}

__global__ void series(const double *in, double *out, int *steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double y = in[i];
  double z = 1.0, w = 0.0;
  int k = 0;
  do {
    w = w + z;
    z = z * 0.5 + y;
    k++;
  } while (z < 100.0 && k < 50);
  out[i] = w;
  steps[i] = k;
}
