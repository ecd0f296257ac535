/* hybridsort, OpenMP (Rodinia has no OpenMP version; this is the natural
 * one): the same pivots; each thread counts its contiguous chunk of the
 * list into private bucket histograms, the counts become per-thread
 * offsets, each thread scatters its chunk, and the buckets are then
 * sorted in parallel (dynamic schedule: their sizes differ), each with a
 * bottom-up merge sort like the CUDA passes. */
#include <omp.h>
#include "hybridsort_common.h"

static int find_bucket(const float *pivots, float v) {
    int lo = 0, hi = HS_DIVISIONS - 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (v < pivots[mid])
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* Bottom-up merge sort of a[0..n) using tmp; the result ends in a. */
static void merge_sort(float *a, float *tmp, int n) {
    float *src = a, *dst = tmp;
    for (int run = 1; run < n; run *= 2) {
        for (int lo = 0; lo < n; lo += 2 * run) {
            int mid = lo + run < n ? lo + run : n, hi = lo + 2 * run < n ? lo + 2 * run : n;
            int i = lo, j = mid, o = lo;
            while (i < mid && j < hi) dst[o++] = src[i] <= src[j] ? src[i++] : src[j++];
            while (i < mid) dst[o++] = src[i++];
            while (j < hi) dst[o++] = src[j++];
        }
        float *t = src;
        src = dst;
        dst = t;
    }
    if (src != a) memcpy(a, src, (size_t)n * sizeof(float));
}

int main(int argc, char **argv) {
    int n = hs_args(argc, argv);
    float *list = (float *)malloc((size_t)n * sizeof(float));
    float *sorted = (float *)malloc((size_t)n * sizeof(float));
    float *tmp = (float *)malloc((size_t)n * sizeof(float));
    float pivots[HS_DIVISIONS];
    int start[HS_DIVISIONS + 1];
    hs_generate(n, list);
    int threads = omp_get_max_threads();
    int *counts = (int *)calloc((size_t)threads * HS_DIVISIONS, sizeof(int));
    unsigned short *bucket = (unsigned short *)malloc((size_t)n * sizeof(unsigned short));

    double t0 = rd_now();
    hs_pivots(n, list, pivots);
#pragma omp parallel num_threads(threads)
    {
        int t = omp_get_thread_num();
        int nt = omp_get_num_threads();
        size_t lo = (size_t)n * t / nt, hi = (size_t)n * (t + 1) / nt;
        int *mine = counts + (size_t)t * HS_DIVISIONS;
        for (size_t i = lo; i < hi; i++) {
            int b = find_bucket(pivots, list[i]);
            bucket[i] = (unsigned short)b;
            mine[b]++;
        }
#pragma omp barrier
#pragma omp single
        {
            int sum = 0;
            for (int b = 0; b < HS_DIVISIONS; b++) {
                start[b] = sum;
                for (int k = 0; k < nt; k++) {
                    int c = counts[(size_t)k * HS_DIVISIONS + b];
                    counts[(size_t)k * HS_DIVISIONS + b] = sum;
                    sum += c;
                }
            }
            start[HS_DIVISIONS] = sum;
        }
        for (size_t i = lo; i < hi; i++) sorted[mine[bucket[i]]++] = list[i];
#pragma omp barrier
#pragma omp for schedule(dynamic, 8)
        for (int b = 0; b < HS_DIVISIONS; b++)
            merge_sort(sorted + start[b], tmp + start[b], start[b + 1] - start[b]);
    }
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    hs_write(argv[2], n, sorted);
    RD_FREE(list, sorted, tmp, counts, bucket);
    return 0;
}
