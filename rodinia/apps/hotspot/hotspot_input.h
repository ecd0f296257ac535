/* hotspot: the chip's physical constants and the generated input, shared by
 * the CUDA and the OpenMP version. */
#ifndef HOTSPOT_INPUT_H
#define HOTSPOT_INPUT_H
#include "rodinia_common.h"

#define HS_CHIP_THICKNESS 0.0005f
#define HS_CHIP_HEIGHT 0.016f
#define HS_CHIP_WIDTH 0.016f
#define HS_AMBIENT 80.0f
#define HS_MAX_POWER_DENSITY 3.0e6f
#define HS_PRECISION 0.001f
#define HS_SPEC_HEAT_SI 1.75e6f
#define HS_K_SI 100.0f
#define HS_FACTOR_CHIP 0.5f

/* The thermal model's coefficients for a rows x cols grid. */
typedef struct {
    float cap, rx, ry, rz, step;
} hs_coeffs;

static inline hs_coeffs hs_make_coeffs(int rows, int cols) {
    hs_coeffs c;
    float gh = HS_CHIP_HEIGHT / rows;
    float gw = HS_CHIP_WIDTH / cols;
    c.cap = HS_FACTOR_CHIP * HS_SPEC_HEAT_SI * HS_CHIP_THICKNESS * gw * gh;
    c.rx = gw / (2.0f * HS_K_SI * HS_CHIP_THICKNESS * gh);
    c.ry = gh / (2.0f * HS_K_SI * HS_CHIP_THICKNESS * gw);
    c.rz = HS_CHIP_THICKNESS / (HS_K_SI * gh * gw);
    float max_slope = HS_MAX_POWER_DENSITY / (HS_FACTOR_CHIP * HS_CHIP_THICKNESS * HS_SPEC_HEAT_SI);
    c.step = HS_PRECISION / max_slope;
    return c;
}

/* Temperatures around 323 K and a power map with a few hot units. */
static inline void hs_generate(int rows, int cols, float *temp, float *power) {
    rd_rng r = rd_seed(1);
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            temp[i * cols + j] = 323.0f + 20.0f * rd_unit(&r);
            float p = 0.002f * rd_unit(&r);
            if (((i / 64) + (j / 64)) % 5 == 0) p += 0.004f;
            power[i * cols + j] = p;
        }
}

static inline void hs_write(const char *path, int rows, int cols, const float *t) {
    FILE *f = rd_open_output(path);
    for (int i = 0; i < rows * cols; i++) fprintf(f, RD_FLOAT_FMT "\n", t[i]);
    fclose(f);
}
#endif
