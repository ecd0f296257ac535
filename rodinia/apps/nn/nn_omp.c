/* nn, OpenMP: the distances of all records to the target in a parallel
 * loop, then the same selection of the k nearest, query after query. */
#include <math.h>
#include <omp.h>
#include "nn_input.h"

int main(int argc, char **argv) {
    rd_usage(argc, argv, 4, "RECORDS K QUERIES OUTPUT");
    int n = rd_arg_int(argv[1], "records");
    int k = rd_arg_int(argv[2], "k");
    int queries = rd_arg_int(argv[3], "queries");
    if (k > n) {
        fprintf(stderr, "k must not exceed the number of records\n");
        return 1;
    }
    nn_record *rec = (nn_record *)malloc((size_t)n * sizeof(nn_record));
    float *dist = (float *)malloc((size_t)n * sizeof(float));
    int *index = (int *)malloc((size_t)n * sizeof(int));
    int *best_index = (int *)malloc((size_t)queries * k * sizeof(int));
    float *best_dist = (float *)malloc((size_t)queries * k * sizeof(float));
    nn_generate(n, rec);

    double t0 = rd_now();
    for (int q = 0; q < queries; q++) {
        nn_record t = nn_query(q);
#pragma omp parallel for schedule(static)
        for (int i = 0; i < n; i++) {
            float dlat = t.lat - rec[i].lat;
            float dlng = t.lng - rec[i].lng;
            dist[i] = sqrtf(dlat * dlat + dlng * dlng);
        }
        nn_select(n, k, dist, index);
        for (int i = 0; i < k; i++) {
            best_index[q * k + i] = index[i];
            best_dist[q * k + i] = dist[i];
        }
    }
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    nn_write(argv[4], queries, k, best_index, best_dist);
    RD_FREE(rec, dist, index, best_index, best_dist);
    return 0;
}
