// A while loop whose trip count depends on the data, with a branch in
// the body (if-converted) and a value (the start) used after the loop.
__global__ void collatz(const int *start, int *steps, int *back) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int n = start[i];
  int s = 0;
  int x = n;
  while (x != 1) {
    if (x % 2 == 0)
      x = x / 2;
    else
      x = 3 * x + 1;
    s++;
  }
  steps[i] = s;
  back[i] = n + s;
}
