/* mummergpu: the generated reference and queries, the suffix tree of the
 * reference (built on the host, as in Rodinia, then flattened into
 * arrays), and the output, shared by both versions.
 *
 * The tree is built from the suffix array and its LCP array (a stack
 * construction) rather than with Ukkonen's algorithm, and has no suffix
 * links: every query position is matched by a walk from the root. */
#ifndef MUMMERGPU_TREE_H
#define MUMMERGPU_TREE_H
#include "rodinia_common.h"

#define MG_END 4 /* the terminator's code; bases are 0..3 */

/* The flattened tree: node k's children by base (-1: none), the start of
 * the leftmost suffix below it, and its string depth. */
typedef struct {
    int nodes;
    int *child; /* 4 per node */
    int *pos;
    int *depth;
} mg_tree;

/* A reference of `len` bases (plus the terminator) with repeated
 * segments, and `count` queries of `qlen` bases: most are copies of
 * reference segments with mutations, the rest random. */
static inline void mg_generate(int len, int count, int qlen, unsigned char *ref,
                               unsigned char *queries) {
    rd_rng r = rd_seed(4711);
    for (int i = 0; i < len; i++) {
        if (i % 10000 == 9000 && i >= 20000) {
            int from = rd_below(&r, i - 10000), span = 200 + rd_below(&r, 400);
            for (int k = 0; k < span && i < len; k++, i++) ref[i] = ref[from + k];
            i--;
            continue;
        }
        ref[i] = (unsigned char)(rd_next(&r) & 3);
    }
    ref[len] = MG_END;
    for (int q = 0; q < count; q++) {
        unsigned char *s = queries + (size_t)q * qlen;
        if (rd_below(&r, 4) != 0) {
            int at = rd_below(&r, len - qlen);
            for (int k = 0; k < qlen; k++) {
                unsigned char b = ref[at + k];
                if (rd_below(&r, 20) == 0) b = (unsigned char)((b + 1 + rd_below(&r, 3)) & 3);
                s[k] = b;
            }
        } else {
            for (int k = 0; k < qlen; k++) s[k] = (unsigned char)(rd_next(&r) & 3);
        }
    }
}

static const unsigned char *mg_sort_text;

static int mg_cmp_suffix(const void *a, const void *b) {
    const unsigned char *x = mg_sort_text + *(const int *)a, *y = mg_sort_text + *(const int *)b;
    while (*x == *y) { /* the terminator is unique, so two suffixes differ */
        x++;
        y++;
    }
    return (int)*x - (int)*y;
}

static inline int mg_new_node(mg_tree *t, int pos, int depth) {
    int k = t->nodes++;
    for (int c = 0; c < 4; c++) t->child[4 * k + c] = -1;
    t->pos[k] = pos;
    t->depth[k] = depth;
    return k;
}

static inline void mg_attach(mg_tree *t, const unsigned char *text, int parent, int child) {
    int c = text[t->pos[child] + t->depth[parent]];
    if (c < 4) t->child[4 * parent + c] = child; /* the terminator's leaf is never walked */
    if (t->pos[child] < t->pos[parent]) t->pos[parent] = t->pos[child];
}

/* The suffix tree of text[0..n] (text[n] is the terminator). */
static inline mg_tree mg_build(const unsigned char *text, int n) {
    int total = n + 1;
    int *sa = (int *)malloc((size_t)total * sizeof(int));
    int *rank = (int *)malloc((size_t)total * sizeof(int));
    int *lcp = (int *)malloc((size_t)total * sizeof(int));
    for (int i = 0; i < total; i++) sa[i] = i;
    mg_sort_text = text;
    qsort(sa, (size_t)total, sizeof(int), mg_cmp_suffix);
    for (int i = 0; i < total; i++) rank[sa[i]] = i;
    /* Kasai: lcp[i] = common prefix of suffixes sa[i - 1] and sa[i]. */
    lcp[0] = 0;
    for (int i = 0, h = 0; i < total; i++) {
        if (rank[i] == 0) {
            h = 0;
            continue;
        }
        int j = sa[rank[i] - 1];
        while (text[i + h] == text[j + h] && text[i + h] != MG_END) h++;
        lcp[rank[i]] = h;
        if (h > 0) h--;
    }
    mg_tree t;
    t.nodes = 0;
    t.child = (int *)malloc((size_t)2 * total * 4 * sizeof(int));
    t.pos = (int *)malloc((size_t)2 * total * sizeof(int));
    t.depth = (int *)malloc((size_t)2 * total * sizeof(int));
    int *stack = rank; /* no longer needed */
    int top = 0;
    stack[0] = mg_new_node(&t, total, 0);
    for (int i = 0; i < total; i++) {
        int l = lcp[i], last = -1;
        while (t.depth[stack[top]] > l) {
            last = stack[top--];
            if (t.depth[stack[top]] >= l) mg_attach(&t, text, stack[top], last);
        }
        if (t.depth[stack[top]] < l) {
            int v = mg_new_node(&t, t.pos[last], l);
            mg_attach(&t, text, v, last);
            stack[++top] = v;
        }
        stack[++top] = mg_new_node(&t, sa[i], total - sa[i]);
    }
    while (top > 0) {
        int last = stack[top--];
        mg_attach(&t, text, stack[top], last);
    }
    free(sa);
    free(rank);
    free(lcp);
    return t;
}

static inline void mg_free(mg_tree *t) {
    free(t->child);
    free(t->pos);
    free(t->depth);
}

/* Prints the maximal matches: for every query position whose longest
 * match has at least `min_match` bases and is not part of the previous
 * position's match, the query, the position, the length and the
 * leftmost reference position. */
static inline void mg_write(const char *path, int count, int qlen, int min_match,
                            const int *length, const int *where) {
    FILE *f = rd_open_output(path);
    long long matches = 0;
    for (int q = 0; q < count; q++)
        for (int s = 0; s < qlen; s++) {
            int m = length[(size_t)q * qlen + s];
            if (m >= min_match && (s == 0 || length[(size_t)q * qlen + s - 1] < m + 1)) {
                fprintf(f, "%d %d %d %d\n", q, s, m, where[(size_t)q * qlen + s]);
                matches++;
            }
        }
    fprintf(f, "%lld\n", matches);
    fclose(f);
}

/* Parses REFERENCE_LENGTH QUERIES QUERY_LENGTH MIN_MATCH OUTPUT, or exits. */
static inline void mg_args(int argc, char **argv, int *len, int *count, int *qlen, int *min) {
    rd_int_args(argc, argv, "REFERENCE_LENGTH QUERIES QUERY_LENGTH MIN_MATCH OUTPUT",
                "reference length", len, "queries", count, "query length", qlen, "minimum match",
                min, RD_END);
    rd_check(*qlen < *len && *len <= 200000000, "need query length < reference length <= 2e8\n");
}

/* Parses the arguments and builds the host side both versions start from:
 * the reference and its suffix tree, the queries, and their result arrays. */
static inline mg_tree mg_setup(int argc, char **argv, int *len, int *count, int *qlen,
                               int *min_match, unsigned char **ref, unsigned char **queries,
                               int **length, int **where) {
    mg_args(argc, argv, len, count, qlen, min_match);
    size_t qbytes = (size_t)*count * *qlen;
    *ref = (unsigned char *)malloc((size_t)*len + 1);
    *queries = (unsigned char *)malloc(qbytes);
    *length = (int *)malloc(qbytes * sizeof(int));
    *where = (int *)malloc(qbytes * sizeof(int));
    mg_generate(*len, *count, *qlen, *ref, *queries);
    return mg_build(*ref, *len);
}
#endif
