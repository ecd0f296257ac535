// One Game of Life generation on a grid stored with a dead border: `wp`
// cells a padded row, thread t computes padded cell t + wp + 1. The nine
// loads are three runs of neighbouring offsets (rows above, at and below),
// which the RACER lowering streams once each through delay lines.
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
