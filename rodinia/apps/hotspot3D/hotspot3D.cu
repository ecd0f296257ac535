/* hotspot3D: a 7-point stencil on an nx x ny x nz grid.  Blocks of 64x4
 * threads cover the x-y plane; each thread marches up its column in z,
 * keeping the cells below, at and above it in registers, so each cell is
 * read from global memory once per step for its own column.  The host swaps
 * the two grids after every step. */
#include <cuda_runtime.h>
#include "hotspot3D_common.h"

#define BLOCK_X 64
#define BLOCK_Y 4

__global__ void hotspot3d_step(const float *p, const float *t_in, float *t_out, float sdc, int nx,
                               int ny, int nz, float ce, float cw, float cn, float cs, float ct,
                               float cb, float cc) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    int j = blockDim.y * blockIdx.y + threadIdx.y;
    int c = i + j * nx;
    int xy = nx * ny;
    int w = i == 0 ? c : c - 1;
    int e = i == nx - 1 ? c : c + 1;
    int n = j == 0 ? c : c - nx;
    int s = j == ny - 1 ? c : c + nx;

    /* Bottom layer: the cell below is the cell itself. */
    float below = t_in[c], here = below, above = t_in[c + xy];
    t_out[c] = cc * here + cw * t_in[w] + ce * t_in[e] + cs * t_in[s] + cn * t_in[n] +
               cb * below + ct * above + sdc * p[c] + ct * H3_AMBIENT;
    c += xy;
    w += xy;
    e += xy;
    n += xy;
    s += xy;
    for (int k = 1; k < nz - 1; ++k) {
        below = here;
        here = above;
        above = t_in[c + xy];
        t_out[c] = cc * here + cw * t_in[w] + ce * t_in[e] + cs * t_in[s] + cn * t_in[n] +
                   cb * below + ct * above + sdc * p[c] + ct * H3_AMBIENT;
        c += xy;
        w += xy;
        e += xy;
        n += xy;
        s += xy;
    }
    /* Top layer: the cell above is the cell itself. */
    below = here;
    here = above;
    t_out[c] = cc * here + cw * t_in[w] + ce * t_in[e] + cs * t_in[s] + cn * t_in[n] +
               cb * below + ct * here + sdc * p[c] + ct * H3_AMBIENT;
}

int main(int argc, char **argv) {
    h3_args a = h3_parse(argc, argv);
    size_t n = (size_t)a.nx * a.ny * a.nz;
    float *temp = (float *)malloc(n * sizeof(float));
    float *power = (float *)malloc(n * sizeof(float));
    h3_generate(a.nx, a.ny, a.nz, temp, power);
    h3_coeffs c = h3_make_coeffs(a.nx, a.ny, a.nz);

    float *d_power, *d_in, *d_out;
    RD_CUDA_CHECK(cudaMalloc(&d_power, n * sizeof(float)));
    RD_CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    RD_CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    dim3 block(BLOCK_X, BLOCK_Y);
    dim3 grid(a.nx / BLOCK_X, (a.ny + BLOCK_Y - 1) / BLOCK_Y);

    double t0 = rd_now();
    RD_CUDA_CHECK(cudaMemcpy(d_power, power, n * sizeof(float), cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_in, temp, n * sizeof(float), cudaMemcpyHostToDevice));
    for (int it = 0; it < a.iterations; it++) {
        hotspot3d_step<<<grid, block>>>(d_power, d_in, d_out, c.sdc, a.nx, a.ny, a.nz, c.ce, c.cw,
                                        c.cn, c.cs, c.ct, c.cb, c.cc);
        float *t = d_in;
        d_in = d_out;
        d_out = t;
    }
    RD_CUDA_CHECK(cudaGetLastError());
    RD_CUDA_CHECK(cudaMemcpy(temp, d_in, n * sizeof(float), cudaMemcpyDeviceToHost));
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    h3_write(argv[4], a.nx, a.ny, a.nz, temp);
    RD_CUDA_FREE(d_power, d_in, d_out);
    RD_FREE(temp, power);
    return 0;
}
