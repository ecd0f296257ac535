// Kernels for spaced_launch.cu, included with quotes from its directory.
template <typename T>
struct Box {
    T v;
};

__global__ void scale(float *a, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] *= s;
}

template <int K>
__global__ void add(float *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] += K;
}
