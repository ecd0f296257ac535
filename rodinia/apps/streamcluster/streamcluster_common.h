/* streamcluster: the facility-location local search around pgain, shared
 * by both versions.  A solution is a set of open centres (each costs z) and
 * an assignment of every weighted point to a centre (costing its weighted
 * squared distance).  pgain asks, for a candidate point x: if x were opened,
 * which points would move to it and which centres would be worth closing
 * (their remaining points moved to x), and does the total cost drop?  The
 * per-point part is the parallel kernel; this header holds the input, the
 * per-centre sums (in point order, so both versions agree bit for bit) and
 * the decision. */
#ifndef STREAMCLUSTER_COMMON_H
#define STREAMCLUSTER_COMMON_H
#include "rodinia_common.h"

/* Open centres at most (the width of a work row is centres + 1). */
#define SC_MAX_CENTRES 128
/* Coordinates per point at most (the candidate is staged in shared memory). */
#define SC_MAX_DIM 256
/* Natural groups in the generated points. */
#define SC_GROUPS 40

typedef struct {
    int n, dim;
    float *coord;       /* row-major: point i at coord[i * dim ...] */
    float *weight;
    float *cost;        /* weighted squared distance to its centre */
    int *assign;        /* the point's centre (a point index) */
    char *is_centre;
    int *centre_table;  /* open centre -> its number 0..centres-1 */
    int centres;
    float z;            /* cost of one open centre */
} sc_state;

static inline float sc_dist(const sc_state *s, int a, int b) {
    float d = 0.0f;
    for (int i = 0; i < s->dim; i++) {
        float t = s->coord[(size_t)a * s->dim + i] - s->coord[(size_t)b * s->dim + i];
        d += t * t;
    }
    return d;
}

/* Points around SC_GROUPS random group centres in [0, 1)^dim with weights
 * 1..4; one centre (point 0) holds every point; z is 1/400 of that
 * first solution's assignment cost. */
static inline void sc_init(sc_state *s, int n, int dim) {
    rd_rng r = rd_seed(23);
    s->n = n;
    s->dim = dim;
    s->coord = (float *)malloc((size_t)n * dim * sizeof(float));
    s->weight = (float *)malloc((size_t)n * sizeof(float));
    s->cost = (float *)malloc((size_t)n * sizeof(float));
    s->assign = (int *)malloc((size_t)n * sizeof(int));
    s->is_centre = (char *)calloc((size_t)n, 1);
    s->centre_table = (int *)malloc((size_t)n * sizeof(int));
    float *group = (float *)malloc((size_t)SC_GROUPS * dim * sizeof(float));
    for (int i = 0; i < SC_GROUPS * dim; i++) group[i] = rd_unit(&r);
    for (int i = 0; i < n; i++) {
        int g = rd_below(&r, SC_GROUPS);
        for (int j = 0; j < dim; j++)
            s->coord[(size_t)i * dim + j] = group[g * dim + j] + 0.25f * (rd_unit(&r) - 0.5f);
        s->weight[i] = (float)(1 + rd_below(&r, 4));
    }
    free(group);
    float total = 0.0f;
    for (int i = 0; i < n; i++) {
        s->assign[i] = 0;
        s->cost[i] = sc_dist(s, i, 0) * s->weight[i];
        total += s->cost[i];
    }
    s->is_centre[0] = 1;
    s->centres = 1;
    s->z = total / 400.0f;
}

static inline void sc_free(sc_state *s) {
    free(s->coord);
    free(s->weight);
    free(s->cost);
    free(s->assign);
    free(s->is_centre);
    free(s->centre_table);
}

/* Numbers the open centres 0..centres-1 (the columns of the work rows). */
static inline void sc_number_centres(sc_state *s) {
    int k = 0;
    for (int i = 0; i < s->n; i++)
        if (s->is_centre[i]) s->centre_table[i] = k++;
}

/* The next candidate, or -1 when it is already a centre or no centre can
 * be added. */
static inline int sc_candidate(const sc_state *s, rd_rng *r) {
    int x = rd_below(r, s->n);
    if (s->is_centre[x] || s->centres >= SC_MAX_CENTRES) return -1;
    return x;
}

/* Column c of the work rows summed in point order. */
static inline float sc_column_sum(const float *work, int n, int stride, int c) {
    float sum = 0.0f;
    for (int j = 0; j < n; j++) sum += work[(size_t)j * stride + c];
    return sum;
}

/* The decision, given the per-point work rows (column centre_table[c]:
 * what closing c saves on its points that stay; last column: what the
 * points that switch to x save) and lower[k] = z + column k for every open
 * centre.  Opens x (and closes the centres worth closing) when that lowers
 * the total cost; returns the cost drop (0 when x stays closed). */
static inline float sc_decide(sc_state *s, int x, const float *work, const char *switched,
                              const float *lower) {
    int k = s->centres;
    float opening = s->z + sc_column_sum(work, s->n, k + 1, k);
    int closing = 0;
    for (int c = 0; c < k; c++)
        if (lower[c] > 0.0f) {
            closing++;
            opening -= lower[c];
        }
    if (opening >= 0.0f) return 0.0f;
    for (int i = 0; i < s->n; i++)
        if (switched[i] || lower[s->centre_table[s->assign[i]]] > 0.0f) {
            s->cost[i] = sc_dist(s, i, x) * s->weight[i];
            s->assign[i] = x;
        }
    for (int i = 0; i < s->n; i++)
        if (s->is_centre[i] && lower[s->centre_table[i]] > 0.0f) s->is_centre[i] = 0;
    s->is_centre[x] = 1;
    s->centres += 1 - closing;
    return -opening;
}

/* The centres, every point's centre, and the total cost. */
static inline void sc_write(const char *path, const sc_state *s) {
    FILE *f = rd_open_output(path);
    fprintf(f, "%d\n", s->centres);
    for (int i = 0; i < s->n; i++)
        if (s->is_centre[i]) fprintf(f, "%d\n", i);
    double total = (double)s->centres * s->z;
    for (int i = 0; i < s->n; i++) {
        fprintf(f, "%d\n", s->assign[i]);
        total += s->cost[i];
    }
    fprintf(f, RD_FLOAT_FMT "\n", total);
    fclose(f);
}

/* Parses the arguments shared by both versions, or exits. */
static inline void sc_args(int argc, char **argv, int *n, int *dim, int *candidates) {
    rd_int_args(argc, argv, "POINTS DIM CANDIDATES OUTPUT", "points", n, "dim", dim, "candidates",
                candidates, RD_END);
    rd_require(*dim <= SC_MAX_DIM, "dim must not exceed %d\n", SC_MAX_DIM);
}
#endif
