/* nw: Needleman-Wunsch global alignment of two generated sequences.  The
 * substitution scores, the generated sequences, the initial borders and the
 * output, shared by both versions.  The score matrix and the reference matrix
 * (substitution score of each pair) are (n + 1) x (n + 1), row-major. */
#ifndef NW_INPUT_H
#define NW_INPUT_H
#include "rodinia_common.h"

#define NW_ALPHABET 24

/* A symmetric substitution table: matches score 4..8, mismatches -4..2. */
static inline int nw_substitution(int a, int b) {
    if (a == b) return 4 + a % 5;
    return ((a + 1) * (b + 1)) % 7 - 4;
}

static inline void nw_generate(int n, int penalty, int **score_out, int **ref_out) {
    int cols = n + 1;
    size_t cells = (size_t)cols * cols;
    int *score = (int *)calloc(cells, sizeof(int));
    int *ref = (int *)calloc(cells, sizeof(int));
    int *a = (int *)malloc(cols * sizeof(int));
    int *b = (int *)malloc(cols * sizeof(int));
    rd_rng r = rd_seed(5);
    for (int i = 1; i < cols; i++) a[i] = rd_below(&r, NW_ALPHABET);
    for (int j = 1; j < cols; j++) b[j] = rd_below(&r, NW_ALPHABET);
    for (int i = 1; i < cols; i++)
        for (int j = 1; j < cols; j++) ref[(size_t)i * cols + j] = nw_substitution(a[i], b[j]);
    for (int i = 0; i < cols; i++) {
        score[(size_t)i * cols] = -i * penalty;
        score[i] = -i * penalty;
    }
    free(a);
    free(b);
    *score_out = score;
    *ref_out = ref;
}

/* The last row in full, then every row's sum. */
static inline void nw_write(const char *path, int n, const int *score) {
    int cols = n + 1;
    FILE *f = rd_open_output(path);
    for (int j = 0; j < cols; j++) fprintf(f, "%d\n", score[(size_t)n * cols + j]);
    for (int i = 0; i < cols; i++) {
        long long s = 0;
        for (int j = 0; j < cols; j++) s += score[(size_t)i * cols + j];
        fprintf(f, "%lld\n", s);
    }
    fclose(f);
}

static inline int nw_max3(int a, int b, int c) {
    int m = a > b ? a : b;
    return m > c ? m : c;
}

/* Parses LENGTH PENALTY OUTPUT (a multiple of `tile` long), or exits. */
static inline void nw_parse(int argc, char **argv, int tile, int *n, int *penalty) {
    rd_usage(argc, argv, 3, "LENGTH PENALTY OUTPUT");
    *n = rd_arg_int(argv[1], "length");
    *penalty = rd_arg_int(argv[2], "penalty");
    rd_require(*n % tile == 0, "the length must be a multiple of %d\n", tile);
}
#endif
