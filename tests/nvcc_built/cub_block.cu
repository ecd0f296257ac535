// Built only by nvcc (tests/nvcc_built.rs): CUB's block and warp
// primitives (BlockReduce, BlockScan, WarpReduce, BlockRadixSort) in one
// kernel sharing one union of temporary storage, as CUB's documentation
// shows them. What reaches cucc is nvcc's PTX of CCCL's headers: warp
// shuffles, inline PTX, and memory read back with other types than it was
// written with (the radix sort's 16-bit digit counters scanned as packed
// 32-bit words), which the emitted C must not reorder (docs/jit.md). Every
// result is checked against the host. Prints PASS.
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cuda/functional>
#include <cstdio>

template <int THREADS>
__global__ void block_ops(const int *in, int *sums, int *scan, int *wsums, int *sorted) {
    typedef cub::BlockReduce<int, THREADS> Reduce;
    typedef cub::BlockScan<int, THREADS> Scan;
    typedef cub::WarpReduce<int> WarpRed;
    typedef cub::BlockRadixSort<int, THREADS, 4> Sort;
    __shared__ union {
        typename Reduce::TempStorage reduce;
        typename Scan::TempStorage scan;
        typename WarpRed::TempStorage warp[THREADS / 32];
        typename Sort::TempStorage sort;
    } tmp;
    int t = threadIdx.x, b = blockIdx.x;
    int v = in[b * THREADS + t];
    int s = Reduce(tmp.reduce).Sum(v);
    if (t == 0) sums[b] = s;
    __syncthreads();
    int x;
    Scan(tmp.scan).ExclusiveSum(v, x);
    scan[b * THREADS + t] = x;
    __syncthreads();
    int w = WarpRed(tmp.warp[t / 32]).Reduce(v, cuda::maximum<int>());
    if (t % 32 == 0) wsums[b * (THREADS / 32) + t / 32] = w;
    __syncthreads();
    int keys[4];
    for (int k = 0; k < 4; k++) keys[k] = in[(b * THREADS + t) * 4 % (THREADS * gridDim.x) + k] ^ (k * 77);
    Sort(tmp.sort).Sort(keys);
    for (int k = 0; k < 4; k++) sorted[b * THREADS * 4 + t * 4 + k] = keys[k];
}

int main() {
    const int T = 128, B = 6, N = T * B;
    int h[N];
    for (int i = 0; i < N; i++) h[i] = (i * 7919) % 1013 - 500;
    int *din, *dsum, *dscan, *dw, *dsort;
    cudaMalloc(&din, sizeof h);
    cudaMalloc(&dsum, B * sizeof(int));
    cudaMalloc(&dscan, sizeof h);
    cudaMalloc(&dw, B * (T / 32) * sizeof(int));
    cudaMalloc(&dsort, 4 * sizeof h);
    cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
    block_ops<T><<<B, T>>>(din, dsum, dscan, dw, dsort);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        printf("FAIL cub_block: %s\n", cudaGetErrorString(e));
        return 1;
    }
    int sums[B], scan[N], ws[B * (T / 32)], sorted[4 * N];
    cudaMemcpy(sums, dsum, sizeof sums, cudaMemcpyDeviceToHost);
    cudaMemcpy(scan, dscan, sizeof scan, cudaMemcpyDeviceToHost);
    cudaMemcpy(ws, dw, sizeof ws, cudaMemcpyDeviceToHost);
    cudaMemcpy(sorted, dsort, sizeof sorted, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int b = 0; b < B; b++) {
        int s = 0, run = 0;
        for (int t = 0; t < T; t++) {
            if (scan[b * T + t] != run) bad++;
            run += h[b * T + t];
            s += h[b * T + t];
        }
        if (sums[b] != s) bad++;
        for (int w = 0; w < T / 32; w++) {
            int m = -1 << 30;
            for (int l = 0; l < 32; l++) m = h[b * T + w * 32 + l] > m ? h[b * T + w * 32 + l] : m;
            if (ws[b * (T / 32) + w] != m) bad++;
        }
        // The block's keys, sorted: same multiset, ascending.
        int want[4 * T];
        for (int t = 0; t < T; t++)
            for (int k = 0; k < 4; k++) want[t * 4 + k] = h[(b * T + t) * 4 % N + k] ^ (k * 77);
        for (int i = 1; i < 4 * T; i++)
            for (int j = i; j > 0 && want[j - 1] > want[j]; j--) { int x = want[j]; want[j] = want[j - 1]; want[j - 1] = x; }
        for (int i = 0; i < 4 * T; i++) if (sorted[b * 4 * T + i] != want[i]) bad++;
    }
    if (bad) { printf("FAIL cub_block (%d mismatches)\n", bad); return 1; }
    printf("PASS cub_block\n");
    return 0;
}
