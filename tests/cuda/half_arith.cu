// half precision (cuda_fp16.h): conversions, intrinsics and operators.
// Inputs are multiples of 1/8 with small magnitude, so every result is exact
// in half precision and is compared exactly.
#include <cuda_fp16.h>
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                              \
    do {                                                                         \
        cudaError_t err_ = (call);                                               \
        if (err_ != cudaSuccess) {                                               \
            printf("CUDA error %s at line %d\n", cudaGetErrorString(err_), __LINE__); \
            exit(1);                                                             \
        }                                                                        \
    } while (0)

__global__ void half_ops(const float *a, const float *b, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    half x = __float2half(a[i]);
    half y = __float2half(b[i]);
    half s = __hadd(x, y);
    half d = __hsub(x, y);
    half p = __hmul(x, y);
    half f = __hfma(x, y, s);
    half o = x * y + s - d;  // operator overloads
    out[6 * i + 0] = __half2float(s);
    out[6 * i + 1] = __half2float(d);
    out[6 * i + 2] = __half2float(p);
    out[6 * i + 3] = __half2float(f);
    out[6 * i + 4] = __half2float(o);
    out[6 * i + 5] = __hlt(x, y) ? 1.0f : (__heq(x, y) ? 0.5f : 0.0f);
}

int main() {
    const int n = 96;
    float ha[n], hb[n], hout[6 * n];
    for (int i = 0; i < n; ++i) {
        ha[i] = (i % 16) * 0.5f - 3.0f;
        hb[i] = (i % 7) * 0.25f + 1.0f;
    }
    float *da, *db, *dout;
    CHECK(cudaMalloc(&da, sizeof(ha)));
    CHECK(cudaMalloc(&db, sizeof(hb)));
    CHECK(cudaMalloc(&dout, sizeof(hout)));
    CHECK(cudaMemcpy(da, ha, sizeof(ha), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, hb, sizeof(hb), cudaMemcpyHostToDevice));
    half_ops<<<3, 32>>>(da, db, dout, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        float x = ha[i], y = hb[i];
        float want[6] = {x + y, x - y, x * y, x * y + (x + y), x * y + (x + y) - (x - y),
                         x < y ? 1.0f : (x == y ? 0.5f : 0.0f)};
        for (int k = 0; k < 6; ++k) {
            if (hout[6 * i + k] != want[k]) {
                if (bad < 5) printf("element %d.%d: got %f want %f\n", i, k, hout[6 * i + k], want[k]);
                ++bad;
            }
        }
    }
    cudaFree(da);
    cudaFree(db);
    cudaFree(dout);
    if (bad) {
        printf("FAIL half_arith (%d mismatches)\n", bad);
        return 1;
    }
    printf("PASS half_arith\n");
    return 0;
}
