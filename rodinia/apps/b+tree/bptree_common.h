/* b+tree: a B+ tree of generated records, built on the host and flattened
 * into an array of fixed-size nodes (root first, level by level), queried
 * for single keys and for key ranges.  The records, the tree, the queries
 * and the output, shared by both versions. */
#ifndef BPTREE_COMMON_H
#define BPTREE_COMMON_H
#include <limits.h>
#include <stdbool.h>
#include "rodinia_common.h"

/* Slots per node; the query kernels run one thread per slot. */
#define BPT_ORDER 256

/* A node.  Inner nodes: keys[t] is the smallest key under child indices[t]
 * (keys[0] is INT_MIN), unused slots hold INT_MAX, so exactly one t has
 * keys[t] <= k < keys[t + 1].  Leaves: keys[t] is a record's key and
 * indices[t] its record number. */
typedef struct {
    int location;
    int indices[BPT_ORDER + 1];
    int keys[BPT_ORDER + 1];
    bool is_leaf;
    int num_keys;
} bpt_node;

typedef struct {
    int value;
} bpt_record;

typedef struct {
    int n_records, n_find, n_range, range;
    int *keys;            /* record keys, ascending */
    bpt_record *records;  /* record values */
    bpt_node *nodes;
    long n_nodes;
    int height;           /* inner levels above the leaves */
    int *find_keys;       /* findK queries */
    int *range_start, *range_end;
} bpt_input;

static inline void bpt_fill(bpt_node *n, int location, bool leaf) {
    n->location = location;
    n->is_leaf = leaf;
    n->num_keys = 0;
    for (int t = 0; t <= BPT_ORDER; t++) {
        n->keys[t] = INT_MAX;
        n->indices[t] = 0;
    }
}

/* Bulk-loads the tree: leaves of 128..255 records, inner nodes of 128..255
 * children (fewer at the root), numbered root first. */
static inline void bpt_build(bpt_input *in, rd_rng *r) {
    int n = in->n_records;
    /* Sizes of each level, bottom up, to number the nodes top down. */
    int counts[32], levels = 0;
    int *firsts[32];  /* per level: first key of each node */
    int *groups[32];  /* per level: children (or records) per node */
    int items = n;
    for (;;) {
        int *g = (int *)malloc(((size_t)items / 128 + 2) * sizeof(int));
        int nodes = 0, done = 0;
        while (done < items) {
            int take = 128 + rd_below(r, 128);
            if (items - done <= 255) take = items - done;
            else if (items - done - take < 128) take = (items - done) / 2;
            g[nodes++] = take;
            done += take;
        }
        groups[levels] = g;
        counts[levels] = nodes;
        firsts[levels] = (int *)malloc((size_t)nodes * sizeof(int));
        levels++;
        if (nodes == 1) break;
        items = nodes;
    }
    in->height = levels - 1;
    long total = 0;
    for (int l = 0; l < levels; l++) total += counts[l];
    in->n_nodes = total;
    in->nodes = (bpt_node *)malloc((size_t)total * sizeof(bpt_node));
    /* The first node index of each level: the root level comes first. */
    long start[32];
    long at = 0;
    for (int l = levels - 1; l >= 0; l--) {
        start[l] = at;
        at += counts[l];
    }
    /* Leaves. */
    int rec = 0;
    for (int i = 0; i < counts[0]; i++) {
        bpt_node *nd = &in->nodes[start[0] + i];
        bpt_fill(nd, (int)(start[0] + i), true);
        firsts[0][i] = in->keys[rec];
        for (int t = 0; t < groups[0][i]; t++, rec++) {
            nd->keys[t] = in->keys[rec];
            nd->indices[t] = rec;
        }
        nd->num_keys = groups[0][i];
    }
    /* Inner levels. */
    for (int l = 1; l < levels; l++) {
        int child = 0;
        for (int i = 0; i < counts[l]; i++) {
            bpt_node *nd = &in->nodes[start[l] + i];
            bpt_fill(nd, (int)(start[l] + i), false);
            firsts[l][i] = firsts[l - 1][child];
            for (int t = 0; t < groups[l][i]; t++, child++) {
                nd->keys[t] = t == 0 ? INT_MIN : firsts[l - 1][child];
                nd->indices[t] = (int)(start[l - 1] + child);
            }
            nd->num_keys = groups[l][i];
        }
    }
    for (int l = 0; l < levels; l++) {
        free(groups[l]);
        free(firsts[l]);
    }
}

/* Records with ascending keys (gaps of 1..4), the tree, and the queries: a
 * quarter of the findK keys and of the range ends are absent keys. */
static inline bpt_input bpt_generate(int argc, char **argv) {
    bpt_input in;
    rd_int_args(argc, argv, "RECORDS FINDK_QUERIES RANGE_QUERIES RANGE_SIZE OUTPUT", "records",
                &in.n_records, "findK queries", &in.n_find, "range queries", &in.n_range,
                "range size", &in.range, RD_END);
    rd_check(in.n_records <= 100000000 && in.range < in.n_records,
             "at most 10^8 records, and the range must be smaller than the tree\n");
    rd_rng r = rd_seed(41);
    in.keys = (int *)malloc((size_t)in.n_records * sizeof(int));
    in.records = (bpt_record *)malloc((size_t)in.n_records * sizeof(bpt_record));
    int key = 0;
    for (int i = 0; i < in.n_records; i++) {
        key += 1 + rd_below(&r, 4);
        in.keys[i] = key;
        in.records[i].value = (int)rd_next(&r);
    }
    bpt_build(&in, &r);
    in.find_keys = (int *)malloc((size_t)in.n_find * sizeof(int));
    for (int i = 0; i < in.n_find; i++) {
        int k = in.keys[rd_below(&r, in.n_records)];
        in.find_keys[i] = rd_below(&r, 4) == 0 ? k + 1 + rd_below(&r, 3) : k;
    }
    in.range_start = (int *)malloc((size_t)in.n_range * sizeof(int));
    in.range_end = (int *)malloc((size_t)in.n_range * sizeof(int));
    for (int i = 0; i < in.n_range; i++) {
        int s = rd_below(&r, in.n_records - in.range);
        in.range_start[i] = in.keys[s];
        int e = in.keys[s + rd_below(&r, in.range)];
        in.range_end[i] = rd_below(&r, 4) == 0 ? e + 1 : e;
    }
    return in;
}

/* A 32-bit FNV-1a hash of an int array (order-sensitive). */
static inline unsigned bpt_hash(const int *v, int n) {
    unsigned h = 2166136261u;
    for (int i = 0; i < n; i++) {
        h ^= (unsigned)v[i];
        h *= 16777619u;
    }
    return h;
}

static inline void bpt_write_ints(FILE *f, const int *v, int n) {
    int found = 0;
    for (int i = 0; i < n; i++) found += v[i] != -1;
    fprintf(f, "%d %d\n", found, (int)(bpt_hash(v, n) >> 1));
    for (int i = 0; i < n && i < 2000; i++) fprintf(f, "%d\n", v[i]);
}

/* Per query kind: how many answers were found, a hash of all of them, and
 * the first 2000. */
static inline void bpt_write(const char *path, const bpt_input *in, const int *answers,
                             const int *rec_start, const int *rec_len) {
    FILE *f = rd_open_output(path);
    bpt_write_ints(f, answers, in->n_find);
    bpt_write_ints(f, rec_start, in->n_range);
    bpt_write_ints(f, rec_len, in->n_range);
    fclose(f);
}
#endif
