// Tiled matrix multiply C = A * B with 16x16 shared-memory tiles and 2-D
// blocks, sizes not multiples of the tile. Inputs are small integers stored
// as float, so the products are exact.
#include <cstdio>
#include <cstdlib>

#include "check.h"

#define TILE 16

__global__ void matmul(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N,
                       int K) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
        int ka = t * TILE + threadIdx.x;
        int kb = t * TILE + threadIdx.y;
        As[threadIdx.y][threadIdx.x] = (row < M && ka < K) ? A[row * K + ka] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = (kb < K && col < N) ? B[kb * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = acc;
}

int main() {
    const int M = 40, N = 36, K = 20;
    static float hA[M * K], hB[K * N], hC[M * N];
    for (int i = 0; i < M * K; ++i) hA[i] = (float)((i * 3) % 7 - 3);
    for (int i = 0; i < K * N; ++i) hB[i] = (float)((i * 5) % 9 - 4);
    float *dA, *dB, *dC;
    alloc_copy(&dA, hA, sizeof(hA));
    alloc_copy(&dB, hB, sizeof(hB));
    CHECK(cudaMalloc(&dC, sizeof(hC)));
    dim3 block(TILE, TILE);
    dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    matmul<<<grid, block>>>(dA, dB, dC, M, N, K);
    copy_back(hC, dC, sizeof(hC));
    int bad = 0;
    for (int r = 0; r < M; ++r)
        for (int c = 0; c < N; ++c) {
            float want = 0.0f;
            for (int k = 0; k < K; ++k) want += hA[r * K + k] * hB[k * N + c];
            if (hC[r * N + c] != want) {
                if (bad < 5) printf("C[%d][%d]: got %f want %f\n", r, c, hC[r * N + c], want);
                ++bad;
            }
        }
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    return report("matmul_tiled", bad);
}
