/* myocyte, OpenMP: the same solver; each right-hand side evaluation runs
 * the instances in a parallel loop (Rodinia's OpenMP version parallelises
 * over instances too), each instance evaluating the cell, the three
 * compartments and the coupling in the kernel's order. */
#include <omp.h>
#include "myocyte_model.h"

typedef struct {
    int instances;
    const float *params, *consts;
} host_rhs;

static void rhs_on_host(void *ctx, float t, const float *y, float *dy) {
    host_rhs *h = (host_rhs *)ctx;
#pragma omp parallel for schedule(static)
    for (int n = 0; n < h->instances; n++) {
        const float *yi = y + (size_t)n * MY_EQ;
        float *dyi = dy + (size_t)n * MY_EQ;
        const float *p = h->params + (size_t)n * MY_PARAMS;
        float uptake[3];
        my_ecc(t, yi, p, h->consts, dyi);
        for (int c = 0; c < 3; c++) uptake[c] = my_cam(c, yi, p, h->consts, dyi);
        my_fin(yi, p, uptake, dyi);
    }
}

int main(int argc, char **argv) {
    int t_end, instances;
    float consts[MY_CONSTS], *params, *y, *work;
    my_setup(argc, argv, &t_end, &instances, consts, &params, &y, &work);
    host_rhs h = {instances, params, consts};

    double t0 = rd_now();
    my_stats st = my_solve(instances, y, (float)t_end, rhs_on_host, &h, work);
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    my_write(argv[3], instances, st, y);
    RD_FREE(y, params, work);
    return 0;
}
