/* kmeans: the generated points, the initial centres, the host's centre
 * update and the output, shared by both versions.  The update runs on the
 * host in both, in point order, so both versions compute bit-identical
 * centres and their memberships can be compared exactly. */
#ifndef KMEANS_COMMON_H
#define KMEANS_COMMON_H
#include <float.h>
#include "rodinia_common.h"

/* Room for the centres in constant memory: clusters x features floats. */
#define KM_MAX_CENTRE_FLOATS 4096
/* How many natural groups the generated points form. */
#define KM_GROUPS 12

/* Points (row-major: point i's features at features[i * nf ...]) scattered
 * around KM_GROUPS random group centres in [0, 1)^nf, with noise of
 * different widths so that the groups overlap. */
static inline void km_generate(int n, int nf, float *features) {
    rd_rng r = rd_seed(11);
    float *group = (float *)malloc((size_t)KM_GROUPS * nf * sizeof(float));
    for (int i = 0; i < KM_GROUPS * nf; i++) group[i] = rd_unit(&r);
    for (int i = 0; i < n; i++) {
        int g = rd_below(&r, KM_GROUPS);
        float width = 0.4f + 0.2f * (float)(g % 4);
        for (int f = 0; f < nf; f++)
            features[(size_t)i * nf + f] = group[g * nf + f] + width * (rd_unit(&r) - 0.5f);
    }
    free(group);
}

/* The initial centres: k points evenly spaced through the input. */
static inline void km_initial_centres(int n, int nf, int k, const float *features, float *centres) {
    for (int c = 0; c < k; c++) {
        size_t p = (size_t)c * (size_t)(n / k);
        for (int f = 0; f < nf; f++) centres[c * nf + f] = features[p * nf + f];
    }
}

/* Takes the new memberships, counts those that changed, and moves every
 * centre to the mean of its points (a centre without points stays). */
static inline int km_update(int n, int nf, int k, const float *features, int *membership,
                            const int *fresh, float *centres, float *sums, int *counts) {
    int delta = 0;
    for (int i = 0; i < k * nf; i++) sums[i] = 0.0f;
    for (int c = 0; c < k; c++) counts[c] = 0;
    for (int i = 0; i < n; i++) {
        int c = fresh[i];
        if (c != membership[i]) {
            delta++;
            membership[i] = c;
        }
        counts[c]++;
        for (int f = 0; f < nf; f++) sums[c * nf + f] += features[(size_t)i * nf + f];
    }
    for (int c = 0; c < k; c++)
        if (counts[c] > 0)
            for (int f = 0; f < nf; f++) centres[c * nf + f] = sums[c * nf + f] / (float)counts[c];
    return delta;
}

/* The number of assignment passes, the memberships and the centres. */
static inline void km_write(const char *path, int n, int nf, int k, int passes,
                            const int *membership, const float *centres) {
    FILE *f = rd_open_output(path);
    fprintf(f, "%d\n", passes);
    for (int i = 0; i < n; i++) fprintf(f, "%d\n", membership[i]);
    for (int c = 0; c < k; c++)
        for (int j = 0; j < nf; j++) fprintf(f, RD_FLOAT_FMT "\n", centres[c * nf + j]);
    fclose(f);
}

/* Parses the arguments shared by both versions, or exits. */
static inline void km_args(int argc, char **argv, int *n, int *nf, int *k, int *max_passes) {
    rd_int_args(argc, argv, "POINTS FEATURES CLUSTERS MAX_PASSES OUTPUT", "points", n, "features",
                nf, "clusters", k, "max passes", max_passes, RD_END);
    if (*k > *n || (long)*k * *nf > KM_MAX_CENTRE_FLOATS) {
        fprintf(stderr, "need clusters <= points and clusters x features <= %d\n",
                KM_MAX_CENTRE_FLOATS);
        exit(1);
    }
}

/* Parses the arguments and builds the host side both versions start from:
 * the points, the initial centres, the passes' work buffers, and no point
 * in a cluster yet. */
static inline void km_setup(int argc, char **argv, int *n, int *nf, int *k, int *max_passes,
                            float **features, float **centres, float **sums, int **counts,
                            int **membership, int **fresh) {
    km_args(argc, argv, n, nf, k, max_passes);
    *features = (float *)malloc((size_t)*n * *nf * sizeof(float));
    *centres = (float *)malloc((size_t)*k * *nf * sizeof(float));
    *sums = (float *)malloc((size_t)*k * *nf * sizeof(float));
    *counts = (int *)malloc((size_t)*k * sizeof(int));
    *membership = (int *)malloc((size_t)*n * sizeof(int));
    *fresh = (int *)malloc((size_t)*n * sizeof(int));
    km_generate(*n, *nf, *features);
    km_initial_centres(*n, *nf, *k, *features, *centres);
    for (int i = 0; i < *n; i++) (*membership)[i] = -1;
}
#endif
