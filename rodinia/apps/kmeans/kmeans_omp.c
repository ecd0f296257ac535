/* kmeans, OpenMP: each pass assigns the points to their nearest centres in
 * a parallel loop over the row-major features, then the host updates the
 * centres in point order exactly as the CUDA version's host does. */
#include <omp.h>
#include "kmeans_common.h"

static int nearest(const float *point, const float *centres, int nf, int k) {
    int best = 0;
    float best_dist = FLT_MAX;
    for (int c = 0; c < k; c++) {
        float dist = 0.0f;
        for (int f = 0; f < nf; f++) {
            float d = point[f] - centres[c * nf + f];
            dist += d * d;
        }
        if (dist < best_dist) {
            best_dist = dist;
            best = c;
        }
    }
    return best;
}

int main(int argc, char **argv) {
    int n, nf, k, max_passes, *counts, *membership, *fresh;
    float *features, *centres, *sums;
    km_setup(argc, argv, &n, &nf, &k, &max_passes, &features, &centres, &sums, &counts,
             &membership, &fresh);

    double t0 = rd_now();
    int passes = 0, delta;
    do {
#pragma omp parallel for schedule(static)
        for (int i = 0; i < n; i++) fresh[i] = nearest(&features[(size_t)i * nf], centres, nf, k);
        delta = km_update(n, nf, k, features, membership, fresh, centres, sums, counts);
        passes++;
    } while (delta > 0 && passes < max_passes);
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    km_write(argv[5], n, nf, k, passes, membership, centres);
    RD_FREE(features, centres, sums, counts, membership, fresh);
    return 0;
}
