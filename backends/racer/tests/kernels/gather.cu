__global__ void gather(const double *a, const int *idx, double *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = idx[i];
  out[i] = a[j];
}
