/* nn, OpenMP: the distances of all records to the target in a parallel
 * loop, then the same selection of the k nearest, query after query. */
#include <math.h>
#include <omp.h>
#include "nn_input.h"

int main(int argc, char **argv) {
    int n, k, queries, *index, *best_index;
    float *dist, *best_dist;
    nn_record *rec = nn_setup(argc, argv, &n, &k, &queries, &dist, &index, &best_index, &best_dist);

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
