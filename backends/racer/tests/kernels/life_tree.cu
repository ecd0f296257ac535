// The Game of Life generation of life.cu in a form that fits one 4 x 4
// block: the neighbour count summed as a tree, the rule as
// `(s | x) == 3` (3 neighbours, or 2 and alive), and the border columns
// left alone by a conditional store instead of a select (life.cu's rule
// and select need more integer-ALU slots than the placer fits).
__global__ void life_tree(const int *in, int *out, int wp, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    int i = t + wp + 1;
    int s = ((in[i - wp - 1] + in[i - wp]) + (in[i - wp + 1] + in[i - 1])) +
            ((in[i + 1] + in[i + wp - 1]) + (in[i + wp] + in[i + wp + 1]));
    int c = i % wp;
    if (c != 0 && c != wp - 1)
      out[i] = (s | in[i]) == 3;
  }
}
