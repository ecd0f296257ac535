// corpus: runtime-api
// Reads just outside an allocation, as real programs make them: Rodinia's
// srad_v2 loads the row above and below every block's tile, also for the
// first and last rows of blocks (one row before and one after the image),
// and then overwrites those values with clamped ones. On a GPU such reads
// land in mapped memory and the program is right; under cucc they read
// zeros (the device allocation's read-only slack) and the kernel completes
// without an error. Writes just past the end still fault
// (api_illegal_address.cu).
#include <cstdio>

#include "expect.h"

#define TILE 16

// Vertical neighbour sums with srad_v2's loads: unconditional reads of the
// rows above and below the tile, then the clamped ones at the image edges.
__global__ void neighbours(const float *img, float *out, int cols, int rows) {
    __shared__ float north[TILE][TILE];
    __shared__ float south[TILE][TILE];
    int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int index = cols * TILE * by + TILE * bx + cols * ty + tx;
    int index_n = cols * TILE * by + TILE * bx + tx - cols;
    int index_s = cols * TILE * by + TILE * bx + cols * TILE + tx;
    north[ty][tx] = img[index_n];
    south[ty][tx] = img[index_s];
    if (by == 0) {
        north[ty][tx] = img[TILE * bx + tx];
    } else if (by == gridDim.y - 1) {
        south[ty][tx] = img[cols * TILE * (gridDim.y - 1) + TILE * bx + cols * (TILE - 1) + tx];
    }
    __syncthreads();
    out[index] = north[ty][tx] + south[ty][tx] + img[index];
}

int main() {
    const int cols = 64, rows = 48, n = cols * rows;
    float h[n], got[n];
    for (int i = 0; i < n; ++i) h[i] = (float)(i % 97) + 0.5f;
    float *img = nullptr, *out = nullptr;
    EXPECT(cudaMalloc(&img, n * sizeof(float)) == cudaSuccess);
    EXPECT(cudaMalloc(&out, n * sizeof(float)) == cudaSuccess);
    EXPECT(cudaMemcpy(img, h, sizeof h, cudaMemcpyHostToDevice) == cudaSuccess);
    neighbours<<<dim3(cols / TILE, rows / TILE), dim3(TILE, TILE)>>>(img, out, cols, rows);
    EXPECT(cudaGetLastError() == cudaSuccess);
    EXPECT(cudaDeviceSynchronize() == cudaSuccess);
    EXPECT(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost) == cudaSuccess);
    int wrong = 0;
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
            int by = r / TILE, bx = c / TILE, tx = c % TILE;
            int base = cols * TILE * by + TILE * bx + tx;
            float nv = by == 0 ? h[TILE * bx + tx] : h[base - cols];
            float sv = by == rows / TILE - 1
                           ? h[cols * TILE * by + TILE * bx + cols * (TILE - 1) + tx]
                           : h[base + cols * TILE];
            if (got[r * cols + c] != nv + sv + h[r * cols + c]) ++wrong;
        }
    }
    EXPECT(wrong == 0);
    EXPECT(cudaFree(img) == cudaSuccess);
    EXPECT(cudaFree(out) == cudaSuccess);
    if (bad == 0) printf("PASS api_read_slack\n");
    return bad != 0;
}
