// Block reduction in shared memory, as a kernel template.
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

template <typename T, int BLOCK>
__global__ void red(const T *in, T *out, int n) {
    __shared__ T buf[BLOCK];
    extern __shared__ unsigned char dyn[];
    int tid = threadIdx.x;
    int i = blockIdx.x * BLOCK + tid;
    buf[tid] = i < n ? in[i] : T(0);
    dyn[tid] = 0;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s)
            buf[tid] += buf[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = buf[0];
}

__global__ void count_positive(const float *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int pos = i < n && in[i] > 0.0f;
    int c = __syncthreads_count(pos);
    int all = __syncthreads_and(pos);
    int any = __syncthreads_or(pos);
    if (threadIdx.x == 0)
        out[blockIdx.x] = c + all + any;
}

int main() {
    const int n = 4096;
    std::vector<float> h(n, 1.0f);
    float *din, *dout;
    cudaMalloc((void **)&din, n * sizeof(float));
    cudaMalloc((void **)&dout, (n / 256) * sizeof(float));
    cudaMemcpy(din, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    red<float, 256><<<n / 256, 256, 256>>>(din, dout, n);
    red<double, 128><<<1, 128>>>(nullptr, nullptr, 0);
    cudaDeviceSynchronize();
    std::vector<float> partial(n / 256);
    cudaMemcpy(partial.data(), dout, partial.size() * sizeof(float), cudaMemcpyDeviceToHost);
    float sum = 0;
    for (float p : partial)
        sum += p;
    printf("%f\n", sum);
    return sum == n ? 0 : 1;
}
