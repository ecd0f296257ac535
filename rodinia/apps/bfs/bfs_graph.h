/* bfs: the generated graph (compressed adjacency lists) and the output,
 * shared by both versions. */
#ifndef BFS_GRAPH_H
#define BFS_GRAPH_H
#include "rodinia_common.h"

typedef struct {
    int start;  /* first edge */
    int count;  /* number of edges */
} bfs_node;

/* Each node gets 2..10 edges (6 on average, as Rodinia's graph1MW_6) to
 * random nodes, half of them near the node so that the graph has a long
 * diameter and a frontier that grows and shrinks. */
static inline void bfs_generate(int n, bfs_node **nodes, int **edges, int *edge_count) {
    rd_rng r = rd_seed(4);
    bfs_node *nd = (bfs_node *)malloc((size_t)n * sizeof(bfs_node));
    int total = 0;
    for (int i = 0; i < n; i++) {
        nd[i].start = total;
        nd[i].count = 2 + rd_below(&r, 9);
        total += nd[i].count;
    }
    int *e = (int *)malloc((size_t)total * sizeof(int));
    for (int i = 0; i < n; i++)
        for (int k = 0; k < nd[i].count; k++) {
            int dst;
            if (k % 2 == 0) {
                int off = rd_below(&r, 2001) - 1000;
                dst = i + off;
                if (dst < 0) dst += n;
                if (dst >= n) dst -= n;
                if (dst < 0 || dst >= n) dst = rd_below(&r, n);
            } else {
                dst = rd_below(&r, n);
            }
            e[nd[i].start + k] = dst;
        }
    *nodes = nd;
    *edges = e;
    *edge_count = total;
}

static inline void bfs_write(const char *path, int n, const int *cost) {
    FILE *f = rd_open_output(path);
    for (int i = 0; i < n; i++) fprintf(f, "%d\n", cost[i]);
    fclose(f);
}

/* Parses the arguments and builds the host side both versions start from:
 * the graph, and the search's state with node 0 as the only frontier. */
static inline void bfs_setup(int argc, char **argv, int *n, bfs_node **nodes, int **edges,
                             int *edge_count, bool **frontier, bool **visited, bool **next,
                             int **cost) {
    rd_usage(argc, argv, 2, "NODES OUTPUT");
    *n = rd_arg_int(argv[1], "nodes");
    bfs_generate(*n, nodes, edges, edge_count);
    *frontier = (bool *)calloc(*n, sizeof(bool));
    *visited = (bool *)calloc(*n, sizeof(bool));
    *next = (bool *)calloc(*n, sizeof(bool));
    *cost = (int *)malloc((size_t)*n * sizeof(int));
    for (int i = 0; i < *n; i++) (*cost)[i] = -1;
    (*frontier)[0] = true;
    (*visited)[0] = true;
    (*cost)[0] = 0;
}
#endif
