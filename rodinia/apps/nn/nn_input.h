/* nn: the generated records and query points, the host-side selection of
 * the k nearest records, and the output, shared by both versions. */
#ifndef NN_INPUT_H
#define NN_INPUT_H
#include "rodinia_common.h"

/* One record: a position on the globe, in degrees. */
typedef struct {
    float lat, lng;
} nn_record;

/* Records spread over the whole globe, with a denser band in the tropics
 * (Rodinia's hurricane records cluster there too). */
static inline void nn_generate(int n, nn_record *rec) {
    rd_rng r = rd_seed(7);
    for (int i = 0; i < n; i++) {
        if (rd_below(&r, 4) == 0)
            rec[i].lat = 60.0f * rd_unit(&r) - 30.0f;
        else
            rec[i].lat = 180.0f * rd_unit(&r) - 90.0f;
        rec[i].lng = 360.0f * rd_unit(&r) - 180.0f;
    }
}

/* The target point of query q. */
static inline nn_record nn_query(int q) {
    rd_rng r = rd_seed(1000 + (unsigned long long)q);
    nn_record t;
    t.lat = 160.0f * rd_unit(&r) - 80.0f;
    t.lng = 360.0f * rd_unit(&r) - 180.0f;
    return t;
}

/* Moves the k smallest distances to the front of `dist` in increasing
 * order (a partial selection sort, first occurrence wins on ties), keeping
 * `index` (the record of each distance) in step. */
static inline void nn_select(int n, int k, float *dist, int *index) {
    for (int i = 0; i < n; i++) index[i] = i;
    for (int i = 0; i < k && i < n; i++) {
        int best = i;
        for (int j = i + 1; j < n; j++)
            if (dist[j] < dist[best]) best = j;
        float d = dist[i];
        dist[i] = dist[best];
        dist[best] = d;
        int x = index[i];
        index[i] = index[best];
        index[best] = x;
    }
}

/* Per query: the k nearest records (index and distance) in order. */
static inline void nn_write(const char *path, int queries, int k, const int *index,
                            const float *dist) {
    FILE *f = rd_open_output(path);
    for (int q = 0; q < queries; q++)
        for (int i = 0; i < k; i++)
            fprintf(f, "%d " RD_FLOAT_FMT "\n", index[q * k + i], dist[q * k + i]);
    fclose(f);
}

/* Parses the arguments and builds the host side both versions start from:
 * the records, each query's distances and ranking, and the results. */
static inline nn_record *nn_setup(int argc, char **argv, int *n, int *k, int *queries,
                                  float **dist, int **index, int **best_index,
                                  float **best_dist) {
    rd_usage(argc, argv, 4, "RECORDS K QUERIES OUTPUT");
    *n = rd_arg_int(argv[1], "records");
    *k = rd_arg_int(argv[2], "k");
    *queries = rd_arg_int(argv[3], "queries");
    if (*k > *n) {
        fprintf(stderr, "k must not exceed the number of records\n");
        exit(1);
    }
    nn_record *rec = (nn_record *)malloc((size_t)*n * sizeof(nn_record));
    *dist = (float *)malloc((size_t)*n * sizeof(float));
    *index = (int *)malloc((size_t)*n * sizeof(int));
    *best_index = (int *)malloc((size_t)*queries * *k * sizeof(int));
    *best_dist = (float *)malloc((size_t)*queries * *k * sizeof(float));
    nn_generate(*n, rec);
    return rec;
}
#endif
