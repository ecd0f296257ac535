// A 7-point stencil clamped at the grid's edges (`i == 0 ? c : c - 1`),
// each thread marching up its column as hotspot3D does, over a grid of
// 64 x 4 blocks several blocks wide and high: the thread loops run as
// copies without the edge tests in the inner blocks and as written in
// the border blocks. Integers, so the host check is exact.
#include <cstdio>
#include <cuda_runtime.h>
#include "check.h"

__global__ void edge_stencil(const int *in, int *out, int nx, int ny, int nz) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    int c = i + j * nx;
    int xy = nx * ny;
    int w = i == 0 ? c : c - 1;
    int e = i == nx - 1 ? c : c + 1;
    int n = j == 0 ? c : c - nx;
    int s = j != ny - 1 ? c + nx : c;
    for (int k = 0; k < nz; ++k) {
        int below = k == 0 ? c : c - xy;
        int above = k == nz - 1 ? c : c + xy;
        out[c] = 6 * in[c] - in[w] - in[e] - in[n] - in[s] - in[below] - in[above] + k;
        c += xy;
        w += xy;
        e += xy;
        n += xy;
        s += xy;
    }
}

static int at(const int *a, int nx, int ny, int x, int y, int z) {
    return a[x + y * nx + z * nx * ny];
}

int main() {
    const int nx = 256, ny = 24, nz = 5, total = nx * ny * nz;
    static int h_in[total], h_out[total];
    for (int k = 0; k < total; ++k) h_in[k] = (k * 7919) % 1009 - 500;
    int *in, *out;
    cudaMalloc(&in, total * sizeof(int));
    cudaMalloc(&out, total * sizeof(int));
    cudaMemcpy(in, h_in, total * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(out, 0, total * sizeof(int));
    dim3 block(64, 4), grid(nx / 64, ny / 4);
    edge_stencil<<<grid, block>>>(in, out, nx, ny, nz);
    cudaMemcpy(h_out, out, total * sizeof(int), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int z = 0; z < nz; ++z)
        for (int y = 0; y < ny; ++y)
            for (int x = 0; x < nx; ++x) {
                int xw = x == 0 ? x : x - 1, xe = x == nx - 1 ? x : x + 1;
                int yn = y == 0 ? y : y - 1, ys = y == ny - 1 ? y : y + 1;
                int zb = z == 0 ? z : z - 1, za = z == nz - 1 ? z : z + 1;
                int want = 6 * at(h_in, nx, ny, x, y, z) - at(h_in, nx, ny, xw, y, z) -
                           at(h_in, nx, ny, xe, y, z) - at(h_in, nx, ny, x, yn, z) -
                           at(h_in, nx, ny, x, ys, z) - at(h_in, nx, ny, x, y, zb) -
                           at(h_in, nx, ny, x, y, za) + z;
                if (h_out[x + y * nx + z * nx * ny] != want && bad++ < 5)
                    printf("mismatch at (%d, %d, %d)\n", x, y, z);
            }
    cudaFree(in);
    cudaFree(out);
    return report("edge_stencil", bad);
}
