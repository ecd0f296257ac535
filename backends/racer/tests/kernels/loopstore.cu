__global__ void loopstore(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int k = 0;
  while (k < i) {
    out[i] = k;
    k++;
  }
}
