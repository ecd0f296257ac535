/* hotspot3D, OpenMP: the same 7-point stencil, the z-y planes' rows shared
 * among the threads, two grids swapped after every step. */
#include <omp.h>
#include "hotspot3D_common.h"

static void step_grid(const float *p, const float *t_in, float *t_out, int nx, int ny, int nz,
                      h3_coeffs k) {
#pragma omp parallel for collapse(2) schedule(static)
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                int c = x + y * nx + z * nx * ny;
                int w = x == 0 ? c : c - 1;
                int e = x == nx - 1 ? c : c + 1;
                int n = y == 0 ? c : c - nx;
                int s = y == ny - 1 ? c : c + nx;
                int b = z == 0 ? c : c - nx * ny;
                int t = z == nz - 1 ? c : c + nx * ny;
                t_out[c] = k.cc * t_in[c] + k.cw * t_in[w] + k.ce * t_in[e] + k.cs * t_in[s] +
                           k.cn * t_in[n] + k.cb * t_in[b] + k.ct * t_in[t] + k.sdc * p[c] +
                           k.ct * H3_AMBIENT;
            }
}

int main(int argc, char **argv) {
    h3_args a = h3_parse(argc, argv);
    size_t n = (size_t)a.nx * a.ny * a.nz;
    float *temp = (float *)malloc(n * sizeof(float));
    float *power = (float *)malloc(n * sizeof(float));
    float *other = (float *)malloc(n * sizeof(float));
    h3_generate(a.nx, a.ny, a.nz, temp, power);
    h3_coeffs c = h3_make_coeffs(a.nx, a.ny, a.nz);

    double t0 = rd_now();
    float *in = temp, *out = other;
    for (int it = 0; it < a.iterations; it++) {
        step_grid(power, in, out, a.nx, a.ny, a.nz, c);
        float *t = in;
        in = out;
        out = t;
    }
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    h3_write(argv[4], a.nx, a.ny, a.nz, in);
    RD_FREE(temp, other, power);
    return 0;
}
