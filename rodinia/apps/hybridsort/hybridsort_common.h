/* hybridsort: the generated list, the pivots that split it into buckets,
 * and the output, shared by both versions. */
#ifndef HYBRIDSORT_COMMON_H
#define HYBRIDSORT_COMMON_H
#include <float.h>
#include <stdint.h>
#include <string.h>
#include "rodinia_common.h"

#define HS_DIVISIONS 1024 /* buckets, as in Rodinia */
#define HS_SAMPLES_PER_DIVISION 16

/* n floats in [0, 1) with 24 random bits, skewed (squared) so that the
 * buckets' sizes differ. */
static inline void hs_generate(int n, float *list) {
    rd_rng r = rd_seed(2718);
    for (int i = 0; i < n; i++) {
        float u = rd_unit(&r);
        list[i] = (i & 1) ? u * u : u;
    }
}

static int hs_cmp_float(const void *a, const void *b) {
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* HS_DIVISIONS pivots from a regular sample of the list: bucket b holds
 * the values v with pivot[b - 1] <= v < pivot[b]; the last pivot is
 * FLT_MAX, so every value has a bucket. */
static inline void hs_pivots(int n, const float *list, float *pivots) {
    int s = HS_DIVISIONS * HS_SAMPLES_PER_DIVISION;
    float *sample = (float *)malloc((size_t)s * sizeof(float));
    for (int i = 0; i < s; i++) sample[i] = list[(size_t)i * n / s];
    qsort(sample, (size_t)s, sizeof(float), hs_cmp_float);
    for (int b = 0; b < HS_DIVISIONS - 1; b++)
        pivots[b] = sample[(b + 1) * HS_SAMPLES_PER_DIVISION];
    pivots[HS_DIVISIONS - 1] = FLT_MAX;
    free(sample);
}

/* Whether the list is sorted, a position-weighted hash of its bits, and
 * 1000 evenly spaced values. */
static inline void hs_write(const char *path, int n, const float *sorted) {
    FILE *f = rd_open_output(path);
    int ok = 1;
    uint64_t hash = 0;
    for (int i = 0; i < n; i++) {
        uint32_t bits;
        memcpy(&bits, &sorted[i], sizeof bits);
        hash = hash * 1099511628211ULL + bits + (uint64_t)i;
        if (i > 0 && sorted[i - 1] > sorted[i]) ok = 0;
    }
    fprintf(f, "%d\n%lld\n", ok, (long long)(hash >> 2));
    for (int k = 0; k < 1000; k++) fprintf(f, RD_FLOAT_FMT "\n", sorted[(size_t)k * n / 1000]);
    fclose(f);
}

/* Parses ELEMENTS OUTPUT, or exits. */
static inline int hs_args(int argc, char **argv) {
    rd_usage(argc, argv, 2, "ELEMENTS OUTPUT");
    int n = rd_arg_int(argv[1], "elements");
    /* The CUDA version packs a value's place in its block's share of its
     * bucket above the bucket's 10 bits, so that place stays below 2^21. */
    if (n < HS_DIVISIONS * HS_SAMPLES_PER_DIVISION || n > (1 << 30)) {
        fprintf(stderr, "need between %d and 2^30 elements\n",
                HS_DIVISIONS * HS_SAMPLES_PER_DIVISION);
        exit(1);
    }
    return n;
}
#endif
