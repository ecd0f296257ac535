/* myocyte: a cardiac-myocyte-shaped ODE system and its adaptive
 * Runge-Kutta-Fehlberg solver, shared by both versions.
 *
 * Each instance has 91 equations laid out as Rodinia's model is: 46 for the
 * excitation-contraction coupling (membrane potential, 30 gates, 8
 * concentrations, 7 buffers), then three calmodulin compartments of 15
 * binding states each.  The right-hand side is evaluated in three parts as
 * in Rodinia's kernel: `my_ecc` (the cell), `my_cam` (one compartment, which
 * also returns its calcium flux), and `my_fin` (couples the compartments'
 * fluxes back into the cell's calcium).  The constants are generated, not
 * physiological: the structure is what matters here.  The solver (host code
 * in both versions) is the same function; only the right-hand side
 * evaluation differs (a kernel launch per stage, or a parallel loop). */
#ifndef MYOCYTE_MODEL_H
#define MYOCYTE_MODEL_H
#include <math.h>
#include "rodinia_common.h"

#ifdef __CUDACC__
#define MY_FN static inline __host__ __device__
#else
#define MY_FN static inline
#endif

#define MY_EQ 91      /* equations per instance */
#define MY_ECC 46     /* the cell's equations */
#define MY_CAM 15     /* equations per calmodulin compartment */
#define MY_PARAMS 16  /* parameters per instance */
#define MY_GATES 30
#define MY_CURRENTS 15
#define MY_CONCS 8
#define MY_BUFFERS 7
/* Offsets into the constant table. */
#define MY_K_GATE 0                                   /* 5 per gate */
#define MY_K_CURRENT (MY_K_GATE + 5 * MY_GATES)       /* 2 per current */
#define MY_K_CONC (MY_K_CURRENT + 2 * MY_CURRENTS)    /* 3 per concentration */
#define MY_K_BUFFER (MY_K_CONC + 3 * MY_CONCS)        /* 3 per buffer */
#define MY_K_CAM (MY_K_BUFFER + 3 * MY_BUFFERS)       /* 2 per binding step */
#define MY_CONSTS (MY_K_CAM + 2 * MY_CAM)
/* The cell's calcium concentrations that the compartments buffer. */
#define MY_CA0 (1 + MY_GATES + 2)

/* The cell: membrane potential y[0] driven by 15 gated currents and a
 * periodic stimulus, gates relaxing to voltage-dependent steady states,
 * concentrations fed by the currents, buffers binding them. */
MY_FN void my_ecc(float t, const float *y, const float *p, const float *k, float *dy) {
    float v = y[0];
    for (int g = 0; g < MY_GATES; g++) {
        const float *c = k + MY_K_GATE + 5 * g;
        float inf = 1.0f / (1.0f + expf((v - c[0]) / c[1]));
        float d = (v - c[4]) / 25.0f;
        float tau = c[2] + c[3] * expf(-d * d);
        dy[1 + g] = (inf - y[1 + g]) / tau;
    }
    float total = 0.0f;
    float current[MY_CURRENTS];
    for (int i = 0; i < MY_CURRENTS; i++) {
        const float *c = k + MY_K_CURRENT + 2 * i;
        float g = c[1] * p[4 + i % 8] * y[1 + 2 * i] * y[2 + 2 * i];
        current[i] = g * (v - c[0]);
        total += current[i];
    }
    float phase = fmodf(t, p[0]);
    float w = (phase - 2.0f * p[2]) / p[2]; /* a smooth pulse of width p[2] */
    float stim = -p[1] / (1.0f + w * w * w * w);
    dy[0] = -(total + stim) / p[3];
    for (int i = 0; i < MY_CONCS; i++) {
        const float *c = k + MY_K_CONC + 3 * i;
        float conc = y[1 + MY_GATES + i];
        dy[1 + MY_GATES + i] = -c[2] * (current[i] + current[i + 7]) - (conc - c[0]) / c[1];
    }
    for (int i = 0; i < MY_BUFFERS; i++) {
        const float *c = k + MY_K_BUFFER + 3 * i;
        float conc = y[1 + MY_GATES + i];
        float b = y[1 + MY_GATES + MY_CONCS + i];
        dy[1 + MY_GATES + MY_CONCS + i] = c[0] * conc * (c[2] - b) - c[1] * b;
    }
}

/* Calmodulin compartment `comp`: a chain of calcium-binding states fed by
 * the cell's calcium concentration MY_CA0 + comp.  Returns the calcium it
 * takes up. */
MY_FN float my_cam(int comp, const float *y, const float *p, const float *k, float *dy) {
    const float *s = y + MY_ECC + MY_CAM * comp;
    float *ds = dy + MY_ECC + MY_CAM * comp;
    float ca = y[MY_CA0 + comp];
    float uptake = 0.0f;
    float previous = 0.0f;
    for (int j = 0; j < MY_CAM; j++) {
        float flux = 0.0f;
        if (j + 1 < MY_CAM) {
            const float *c = k + MY_K_CAM + 2 * (j + 1);
            flux = p[13] * c[0] * ca * s[j] - p[14] * c[1] * s[j + 1];
            uptake += flux;
        }
        ds[j] = previous - flux;
        previous = flux;
    }
    return uptake * p[12];
}

/* Couples the compartments: their uptake leaves the cell's calcium, and
 * calcium diffuses between neighbouring compartments. */
MY_FN void my_fin(const float *y, const float *p, const float *uptake, float *dy) {
    float c0 = y[MY_CA0], c1 = y[MY_CA0 + 1], c2 = y[MY_CA0 + 2];
    float j01 = p[15] * (c0 - c1), j12 = p[15] * (c1 - c2);
    dy[MY_CA0] += -uptake[0] - j01;
    dy[MY_CA0 + 1] += -uptake[1] + j01 - j12;
    dy[MY_CA0 + 2] += -uptake[2] + j12;
}

/* The shared constant table and each instance's parameters and initial
 * state. */
static inline void my_generate(int instances, float *consts, float *params, float *y) {
    rd_rng r = rd_seed(91);
    for (int g = 0; g < MY_GATES; g++) {
        float *c = consts + MY_K_GATE + 5 * g;
        c[0] = -70.0f + 80.0f * rd_unit(&r);                         /* half-activation */
        c[1] = (g % 2 ? 1.0f : -1.0f) * (4.0f + 8.0f * rd_unit(&r)); /* slope */
        c[2] = 0.5f + 4.0f * rd_unit(&r);                            /* minimal tau */
        c[3] = 20.0f * rd_unit(&r);                                  /* tau peak */
        c[4] = -60.0f + 60.0f * rd_unit(&r);                         /* tau peak voltage */
    }
    for (int i = 0; i < MY_CURRENTS; i++) {
        float *c = consts + MY_K_CURRENT + 2 * i;
        c[0] = i % 3 == 0 ? 50.0f : (i % 3 == 1 ? -90.0f : 120.0f);
        c[1] = 0.05f + 0.5f * rd_unit(&r);
    }
    for (int i = 0; i < MY_CONCS; i++) {
        float *c = consts + MY_K_CONC + 3 * i;
        c[0] = 0.1f + rd_unit(&r);
        c[1] = 20.0f + 100.0f * rd_unit(&r);
        c[2] = 1e-4f * (1.0f + rd_unit(&r));
    }
    for (int i = 0; i < MY_BUFFERS; i++) {
        float *c = consts + MY_K_BUFFER + 3 * i;
        c[0] = 0.5f * rd_unit(&r);
        c[1] = 0.05f + 0.2f * rd_unit(&r);
        c[2] = 0.5f + rd_unit(&r);
    }
    for (int j = 0; j < MY_CAM; j++) {
        float *c = consts + MY_K_CAM + 2 * j;
        c[0] = 0.2f + rd_unit(&r);
        c[1] = 0.1f + 0.5f * rd_unit(&r);
    }
    for (int n = 0; n < instances; n++) {
        float *p = params + (size_t)n * MY_PARAMS;
        p[0] = 40.0f + 40.0f * rd_unit(&r); /* stimulus period */
        p[1] = 40.0f + 20.0f * rd_unit(&r); /* stimulus amplitude */
        p[2] = 1.0f + rd_unit(&r);          /* stimulus duration */
        p[3] = 1.0f + rd_unit(&r);          /* capacitance */
        for (int i = 4; i < 12; i++) p[i] = 0.5f + rd_unit(&r);
        p[12] = 0.2f + 0.3f * rd_unit(&r);  /* calmodulin uptake scale */
        p[13] = 0.5f + rd_unit(&r);         /* binding rate scale */
        p[14] = 0.5f + rd_unit(&r);         /* unbinding rate scale */
        p[15] = 0.05f + 0.1f * rd_unit(&r); /* diffusion */
        float *s = y + (size_t)n * MY_EQ;
        s[0] = -85.0f + 5.0f * rd_unit(&r);
        for (int g = 0; g < MY_GATES; g++) s[1 + g] = rd_unit(&r);
        for (int i = 0; i < MY_CONCS; i++) s[1 + MY_GATES + i] = consts[MY_K_CONC + 3 * i];
        for (int i = 0; i < MY_BUFFERS; i++) s[1 + MY_GATES + MY_CONCS + i] = 0.1f * rd_unit(&r);
        for (int c = 0; c < 3; c++)
            for (int j = 0; j < MY_CAM; j++) s[MY_ECC + MY_CAM * c + j] = j == 0 ? 1.0f : 0.0f;
    }
}

/* Evaluates the right-hand side of every instance at time t. */
typedef void (*my_rhs)(void *ctx, float t, const float *y, float *dy);

/* What the solver did. */
typedef struct {
    int accepted, rejected;
} my_stats;

/* Fehlberg's embedded 4(5) pair: all instances advance together with one
 * step size, chosen from the largest scaled error over every equation of
 * every instance (the maximum is order independent, so the step sequence
 * does not depend on how the evaluations are split).  `work` holds 8
 * arrays of `instances * MY_EQ` floats. */
static inline my_stats my_solve(int instances, float *y, float t_end, my_rhs rhs, void *ctx,
                                float *work) {
    size_t n = (size_t)instances * MY_EQ;
    float *k1 = work, *k2 = work + n, *k3 = work + 2 * n, *k4 = work + 3 * n;
    float *k5 = work + 4 * n, *k6 = work + 5 * n, *tmp = work + 6 * n, *next = work + 7 * n;
    my_stats st = {0, 0};
    float t = 0.0f, h = 0.01f;
    const float h_max = 0.5f, rtol = 1e-5f, atol = 1e-6f;
    while (t < t_end && st.accepted + st.rejected < 10000000) {
        if (t + h > t_end) h = t_end - t;
        rhs(ctx, t, y, k1);
        for (size_t i = 0; i < n; i++) tmp[i] = y[i] + h * (0.25f * k1[i]);
        rhs(ctx, t + 0.25f * h, tmp, k2);
        for (size_t i = 0; i < n; i++) tmp[i] = y[i] + h * (3.0f / 32 * k1[i] + 9.0f / 32 * k2[i]);
        rhs(ctx, t + 0.375f * h, tmp, k3);
        for (size_t i = 0; i < n; i++)
            tmp[i] = y[i] + h * (1932.0f / 2197 * k1[i] - 7200.0f / 2197 * k2[i] +
                                 7296.0f / 2197 * k3[i]);
        rhs(ctx, t + 12.0f / 13 * h, tmp, k4);
        for (size_t i = 0; i < n; i++)
            tmp[i] = y[i] + h * (439.0f / 216 * k1[i] - 8.0f * k2[i] + 3680.0f / 513 * k3[i] -
                                 845.0f / 4104 * k4[i]);
        rhs(ctx, t + h, tmp, k5);
        for (size_t i = 0; i < n; i++)
            tmp[i] = y[i] + h * (-8.0f / 27 * k1[i] + 2.0f * k2[i] - 3544.0f / 2565 * k3[i] +
                                 1859.0f / 4104 * k4[i] - 11.0f / 40 * k5[i]);
        rhs(ctx, t + 0.5f * h, tmp, k6);
        float err = 0.0f;
        for (size_t i = 0; i < n; i++) {
            next[i] = y[i] + h * (16.0f / 135 * k1[i] + 6656.0f / 12825 * k3[i] +
                                  28561.0f / 56430 * k4[i] - 9.0f / 50 * k5[i] +
                                  2.0f / 55 * k6[i]);
            float e = h * (1.0f / 360 * k1[i] - 128.0f / 4275 * k3[i] - 2197.0f / 75240 * k4[i] +
                           1.0f / 50 * k5[i] + 2.0f / 55 * k6[i]);
            float scale = atol + rtol * fabsf(next[i]);
            float q = fabsf(e) / scale;
            if (!(q <= err)) err = q; /* NaN propagates as a rejection */
        }
        if (err <= 1.0f) {
            for (size_t i = 0; i < n; i++) y[i] = next[i];
            t += h;
            st.accepted++;
        } else {
            st.rejected++;
        }
        float factor = err > 0.0f ? 0.84f * powf(1.0f / err, 0.25f) : 4.0f;
        if (!(factor >= 0.1f)) factor = 0.1f;
        if (factor > 4.0f) factor = 4.0f;
        h *= factor;
        if (h > h_max) h = h_max;
        if (h < 1e-6f) h = 1e-6f;
    }
    return st;
}

/* The step counts and every instance's final state. */
static inline void my_write(const char *path, int instances, my_stats st, const float *y) {
    FILE *f = rd_open_output(path);
    fprintf(f, "%d %d\n", st.accepted, st.rejected);
    for (size_t i = 0; i < (size_t)instances * MY_EQ; i++) fprintf(f, RD_FLOAT_FMT "\n", y[i]);
    fclose(f);
}

/* Parses TIME_SPAN INSTANCES OUTPUT, or exits. */
static inline void my_args(int argc, char **argv, int *t_end, int *instances) {
    rd_int_args(argc, argv, "TIME_SPAN_MS INSTANCES OUTPUT", "time span", t_end, "instances",
                instances, RD_END);
}

/* Parses the arguments and builds the host side both versions start from:
 * every instance's parameters and initial state, and the solver's work
 * space. */
static inline void my_setup(int argc, char **argv, int *t_end, int *instances, float *consts,
                            float **params, float **y, float **work) {
    my_args(argc, argv, t_end, instances);
    size_t n = (size_t)*instances * MY_EQ;
    *y = (float *)malloc(n * sizeof(float));
    *params = (float *)malloc((size_t)*instances * MY_PARAMS * sizeof(float));
    *work = (float *)malloc(8 * n * sizeof(float));
    my_generate(*instances, consts, *params, *y);
}
#endif
