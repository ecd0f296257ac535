/* hotspot3D: transient temperature of a stacked chip (a 7-point stencil on
 * an nx x ny x nz grid, insulated on every side).  The physical constants,
 * the stencil's coefficients, the generated input and the output, shared by
 * both versions. */
#ifndef HOTSPOT3D_COMMON_H
#define HOTSPOT3D_COMMON_H
#include "rodinia_common.h"

#define H3_MAX_PD 3.0e6f
#define H3_PRECISION 0.001f
#define H3_SPEC_HEAT_SI 1.75e6f
#define H3_K_SI 100.0f
#define H3_FACTOR_CHIP 0.5f
#define H3_T_CHIP 0.0005f
#define H3_CHIP_HEIGHT 0.016f
#define H3_CHIP_WIDTH 0.016f
#define H3_AMBIENT 80.0f

/* Weights of the cell itself (cc), its east/west, north/south and
 * top/bottom neighbours, and of the power (sdc = step / capacitance). */
typedef struct {
    float cc, ce, cw, cn, cs, ct, cb, sdc;
} h3_coeffs;

static inline h3_coeffs h3_make_coeffs(int nx, int ny, int nz) {
    float dx = H3_CHIP_HEIGHT / nx, dy = H3_CHIP_WIDTH / ny, dz = H3_T_CHIP / nz;
    float cap = H3_FACTOR_CHIP * H3_SPEC_HEAT_SI * H3_T_CHIP * dx * dy;
    float rx = dy / (2.0f * H3_K_SI * H3_T_CHIP * dx);
    float ry = dx / (2.0f * H3_K_SI * H3_T_CHIP * dy);
    float rz = dz / (H3_K_SI * dx * dy);
    float max_slope = H3_MAX_PD / (H3_SPEC_HEAT_SI * H3_T_CHIP);
    float dt = H3_PRECISION / max_slope;
    h3_coeffs c;
    c.sdc = dt / cap;
    c.ce = c.cw = c.sdc / rx;
    c.cn = c.cs = c.sdc / ry;
    c.ct = c.cb = c.sdc / rz;
    c.cc = 1.0f - (2.0f * c.ce + 2.0f * c.cn + 3.0f * c.ct);
    return c;
}

typedef struct {
    int nx, ny, nz, iterations;
} h3_args;

static inline h3_args h3_parse(int argc, char **argv) {
    h3_args a;
    rd_int_args(argc, argv, "ROWS_COLS LAYERS ITERATIONS OUTPUT", "rows/cols", &a.nx, "layers",
                &a.nz, "iterations", &a.iterations, RD_END);
    a.ny = a.nx;
    rd_check(a.nx % 64 == 0 && a.nz >= 2,
             "rows/cols must be a multiple of 64 and layers at least 2\n");
    return a;
}

/* Temperatures around 323 K; power concentrated in a few units per layer. */
static inline void h3_generate(int nx, int ny, int nz, float *temp, float *power) {
    rd_rng r = rd_seed(31);
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                size_t i = ((size_t)z * ny + y) * nx + x;
                temp[i] = 323.0f + 20.0f * rd_unit(&r);
                float p = 0.002f * rd_unit(&r);
                if (((x / 32) + (y / 32) + z) % 4 == 0) p += 0.004f;
                power[i] = p;
            }
}

/* Every 7th cell (the grid can be large) and the sum of each layer. */
static inline void h3_write(const char *path, int nx, int ny, int nz, const float *t) {
    FILE *f = rd_open_output(path);
    size_t n = (size_t)nx * ny * nz;
    for (size_t i = 0; i < n; i += 7) fprintf(f, RD_FLOAT_FMT "\n", t[i]);
    for (int z = 0; z < nz; z++) {
        double s = 0.0;
        for (size_t i = 0; i < (size_t)nx * ny; i++) s += t[(size_t)z * nx * ny + i];
        fprintf(f, RD_FLOAT_FMT "\n", s);
    }
    fclose(f);
}
#endif
