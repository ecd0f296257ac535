__global__ void count(const double *a, int *hits) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double v = a[i];
  atomicAdd(hits, 1);
}
