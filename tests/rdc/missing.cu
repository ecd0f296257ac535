extern __device__ float nowhere(float x);
__global__ void k(float *p) { p[0] = nowhere(p[0]); }
int main() { return 0; }
