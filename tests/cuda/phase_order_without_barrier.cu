// Loops run one after another by every thread of a block, with no
// __syncthreads between them, where the second reads what other threads
// wrote in the first (Rodinia's heartwall, kernel.cu: the subtraction and
// the horizontal cumulative sum of its second pass). On a GPU the block's
// warps run such phases nearly in step; cucc runs them phase by phase.
#include <cstdio>
#include <cuda_runtime.h>

#define NT 256

struct Work {
    float *buf;
    float *sel;
};

__constant__ Work d_work;
__constant__ int d_flag;

__global__ void phases(int rows, int cols) {
    int tx = threadIdx.x;
    int elem = rows * cols;
    if (d_flag != 0) {
        int e = tx;
        while (e < elem) {
            d_work.buf[e] = (float)(e % 7) + 0.25f * (float)(e % 3);
            e = e + NT;
        }
        __syncthreads();
        // subtraction, no barrier after it
        e = tx;
        while (e < elem) {
            d_work.buf[e] = d_work.sel[e] - d_work.buf[e];
            e = e + NT;
        }
        // cumulative sum along each row, reading other threads' results
        e = tx;
        while (e < rows) {
            float sum = 0;
            for (int p = e; p < e + elem; p = p + rows) {
                d_work.buf[p] = d_work.buf[p] + sum;
                sum = d_work.buf[p];
            }
            e = e + NT;
        }
        __syncthreads();
    }
}

int main() {
    const int rows = 81, cols = 51, elem = rows * cols;
    float *buf, *sel;
    cudaMalloc(&buf, elem * sizeof(float));
    cudaMalloc(&sel, elem * sizeof(float));
    float h_sel[rows * cols], got[rows * cols], want[rows * cols];
    for (int i = 0; i < elem; i++)
        h_sel[i] = (float)((i * 13) % 11);
    cudaMemcpy(sel, h_sel, sizeof(h_sel), cudaMemcpyHostToDevice);
    Work w = {buf, sel};
    int flag = 1;
    cudaMemcpyToSymbol(d_work, &w, sizeof(w));
    cudaMemcpyToSymbol(d_flag, &flag, sizeof(flag));
    phases<<<1, NT>>>(rows, cols);
    if (cudaDeviceSynchronize() != cudaSuccess) {
        printf("FAIL launch\n");
        return 1;
    }
    cudaMemcpy(got, buf, sizeof(got), cudaMemcpyDeviceToHost);
    for (int i = 0; i < elem; i++)
        want[i] = h_sel[i] - ((float)(i % 7) + 0.25f * (float)(i % 3));
    for (int r = 0; r < rows; r++) {
        float sum = 0;
        for (int p = r; p < r + elem; p += rows) {
            want[p] = want[p] + sum;
            sum = want[p];
        }
    }
    for (int i = 0; i < elem; i++) {
        if (got[i] != want[i]) {
            printf("FAIL at %d: %g, expected %g\n", i, got[i], want[i]);
            return 1;
        }
    }
    printf("PASS phase_order_without_barrier\n");
    return 0;
}
