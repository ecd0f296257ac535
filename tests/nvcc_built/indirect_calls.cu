// Built only by nvcc (tests/nvcc_built.rs): calls through pointers to
// __device__ functions as nvcc writes them in PTX (`.callprototype` and
// `call` through a register). A table in device memory, a pointer chosen
// with `?:`, a pointer read back by the host with cudaMemcpyFromSymbol and
// passed to a kernel (the usual way to hand device functions to kernels),
// void and struct-returning targets, and last a pointer that is not a
// device function, which must fail the launch rather than run anything.
// The source path's own test of these constructs is
// tests/programs/device_function_pointers.cu. Prints PASS.
#include <cstdio>

typedef float (*unary_op)(float);
typedef void (*accumulate_op)(float *, float);

struct MinMax {
    float lo, hi;
};
typedef MinMax (*range_op)(float, float);

__device__ float twice(float x) { return 2.0f * x; }
__device__ float square(float x) { return x * x; }
__device__ float negate(float x) { return -x; }
__device__ void add_to(float *p, float v) { *p += v; }
__device__ void sub_from(float *p, float v) { *p -= v; }
__device__ MinMax ordered(float a, float b) { return a < b ? MinMax{a, b} : MinMax{b, a}; }

__device__ unary_op table[3] = {twice, square, negate};
__device__ unary_op exported = square;
__device__ range_op range_fn = ordered;

__global__ void through_table(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unary_op f = table[i % 3];
    accumulate_op acc = (i & 1) ? add_to : sub_from;
    float v = f(in[i]);
    acc(&v, 0.5f);
    MinMax r = range_fn(in[i], v);
    out[3 * i] = v;
    out[3 * i + 1] = r.lo;
    out[3 * i + 2] = r.hi;
}

__global__ void through_argument(unary_op f, const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = f(f(in[i]));
}

static float host_op(int k, float x) { return k == 0 ? 2.0f * x : k == 1 ? x * x : -x; }

int main() {
    const int n = 100;
    float hin[n], hout[3 * n], harg[n];
    for (int i = 0; i < n; i++) hin[i] = (float)(i % 11) - 5.0f;
    float *din, *dout, *darg;
    cudaMalloc(&din, sizeof hin);
    cudaMalloc(&dout, sizeof hout);
    cudaMalloc(&darg, sizeof harg);
    cudaMemcpy(din, hin, sizeof hin, cudaMemcpyHostToDevice);
    through_table<<<(n + 31) / 32, 32>>>(din, dout, n);
    unary_op fn = nullptr;
    cudaMemcpyFromSymbol(&fn, exported, sizeof fn);
    through_argument<<<(n + 63) / 64, 64>>>(fn, din, darg, n);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess || fn == nullptr) {
        printf("FAIL indirect_calls: %s, exported pointer %p\n", cudaGetErrorString(e), (void *)fn);
        return 1;
    }
    cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost);
    cudaMemcpy(harg, darg, sizeof harg, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; i++) {
        float x = hin[i];
        float v = host_op(i % 3, x) + ((i & 1) ? 0.5f : -0.5f);
        float lo = x < v ? x : v, hi = x < v ? v : x;
        float a = (x * x) * (x * x);
        if (hout[3 * i] != v || hout[3 * i + 1] != lo || hout[3 * i + 2] != hi || harg[i] != a) {
            if (bad < 5)
                printf("element %d: %g %g %g %g, want %g %g %g %g\n", i, hout[3 * i], hout[3 * i + 1],
                       hout[3 * i + 2], harg[i], v, lo, hi, a);
            bad++;
        }
    }
    if (bad) {
        printf("FAIL indirect_calls (%d mismatches)\n", bad);
        return 1;
    }
    // A pointer that is no device function: the launch fails (sticky), as a
    // jump to a bad address does on a GPU.
    through_argument<<<1, 32>>>((unary_op)(size_t)0x12345, din, darg, n);
    e = cudaDeviceSynchronize();
    if (e == cudaSuccess) {
        printf("FAIL indirect_calls: a call through a bad pointer succeeded\n");
        return 1;
    }
    printf("PASS indirect_calls (bad pointer: %s)\n", cudaGetErrorName(e));
    return 0;
}
