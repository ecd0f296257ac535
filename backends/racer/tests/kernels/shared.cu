__global__ void reverse(const double *a, double *out) {
  __shared__ double tile[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = a[i];
  __syncthreads();
  out[i] = tile[63 - threadIdx.x];
}
