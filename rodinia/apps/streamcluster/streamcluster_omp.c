/* streamcluster, OpenMP: pgain's per-point pass is a parallel loop over the
 * points, the per-centre sums a parallel loop over the centres. */
#include <string.h>
#include <omp.h>
#include "streamcluster_common.h"

static float pgain(sc_state *s, int x, float *work, char *switched, float *lower) {
    sc_number_centres(s);
    int k = s->centres, stride = k + 1, n = s->n, dim = s->dim;
    const float *cx = &s->coord[(size_t)x * dim];
#pragma omp parallel for schedule(static)
    for (int p = 0; p < n; p++) {
        float *row = &work[(size_t)p * stride];
        memset(row, 0, (size_t)stride * sizeof(float));
        float d = 0.0f;
        for (int i = 0; i < dim; i++) {
            float t = s->coord[(size_t)p * dim + i] - cx[i];
            d += t * t;
        }
        float x_cost = d * s->weight[p];
        float current = s->cost[p];
        if (x_cost < current) {
            switched[p] = 1;
            row[k] = x_cost - current;
        } else {
            switched[p] = 0;
            row[s->centre_table[s->assign[p]]] = current - x_cost;
        }
    }
#pragma omp parallel for schedule(static)
    for (int c = 0; c < k; c++) lower[c] = s->z + sc_column_sum(work, n, stride, c);
    return sc_decide(s, x, work, switched, lower);
}

int main(int argc, char **argv) {
    int n, dim, candidates;
    sc_args(argc, argv, &n, &dim, &candidates);
    sc_state s;
    sc_init(&s, n, dim);
    float *work = (float *)malloc((size_t)n * (SC_MAX_CENTRES + 1) * sizeof(float));
    char *switched = (char *)malloc((size_t)n);
    float lower[SC_MAX_CENTRES];
    rd_rng r = rd_seed(29);

    double t0 = rd_now();
    for (int it = 0; it < candidates; it++) {
        int x = sc_candidate(&s, &r);
        if (x >= 0) pgain(&s, x, work, switched, lower);
    }
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    sc_write(argv[4], &s);
    sc_free(&s);
    RD_FREE(work, switched);
    return 0;
}
