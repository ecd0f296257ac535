// Pointers to __device__ functions: a __device__ table of them initialised
// with function names, a local pointer taken with and without `&`, a
// pointer passed to a __device__ function and stored in a struct, called
// with scalar and struct results. Built by cucc (tests/nvcc.rs). Prints PASS.
#include <cstdio>

typedef float (*unary_op)(float);

__device__ float twice(float x) { return 2.0f * x; }
__device__ float square(float x) { return x * x; }
__device__ float negate(float x) { return -x; }
__device__ int add(int a, int b) { return a + b; }
__device__ int sub(int a, int b) { return a - b; }

struct Pair {
    int lo, hi;
};
__device__ Pair split(int v) { return Pair{v & 0xff, v >> 8}; }

__device__ unary_op table[3] = {twice, square, negate};

struct Op {
    int (*fn)(int, int);
    int bias;
};

__device__ float apply(unary_op f, float x) { return f(f(x)); }

__global__ void kernel(const float *in, float *out, int *iout, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = in[i];
    unary_op f = table[i % 3];
    out[2 * i] = f(x);
    unary_op g = (i & 1) ? &square : twice;
    out[2 * i + 1] = apply(g, x);
    Op op = {(i % 2) ? add : sub, 100};
    Pair (*s)(int) = split;
    Pair p = s(i * 300);
    iout[i] = op.fn(i, 7) + op.bias + p.lo * 1000 + p.hi;
}

int main() {
    const int n = 64;
    float hin[n], hout[2 * n];
    int hi[n];
    for (int i = 0; i < n; i++) hin[i] = (float)(i % 9) - 4.0f;
    float *din, *dout;
    int *di;
    cudaMalloc(&din, sizeof hin);
    cudaMalloc(&dout, sizeof hout);
    cudaMalloc(&di, sizeof hi);
    cudaMemcpy(din, hin, sizeof hin, cudaMemcpyHostToDevice);
    kernel<<<2, 32>>>(din, dout, di, n);
    cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost);
    cudaMemcpy(hi, di, sizeof hi, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; i++) {
        float x = hin[i];
        float f = i % 3 == 0 ? 2 * x : i % 3 == 1 ? x * x : -x;
        float g = (i & 1) ? (x * x) * (x * x) : 4 * x;
        int v = i * 300;
        int want = ((i % 2) ? i + 7 : i - 7) + 100 + (v & 0xff) * 1000 + (v >> 8);
        if (hout[2 * i] != f || hout[2 * i + 1] != g || hi[i] != want) {
            if (bad < 5) printf("element %d: %g %g %d, want %g %g %d\n", i, hout[2 * i], hout[2 * i + 1], hi[i], f, g, want);
            bad++;
        }
    }
    if (bad) {
        printf("FAIL device_function_pointers (%d mismatches)\n", bad);
        return 1;
    }
    printf("PASS device_function_pointers\n");
    return 0;
}
