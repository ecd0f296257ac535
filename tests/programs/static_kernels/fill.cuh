// Included by both translation units: each gets its own copy of this
// internal-linkage kernel (Rodinia's huffman includes its scan kernels so).
template <int V>
static __global__ void fill(int *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = V + i;
}
