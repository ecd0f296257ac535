/* bfs, OpenMP: the same two phases per level, each a parallel loop over
 * the nodes. */
#include <stdbool.h>
#include <omp.h>
#include "bfs_graph.h"

int main(int argc, char **argv) {
    int n, *edges, edge_count, *cost;
    bfs_node *nodes;
    bool *frontier, *visited, *next;
    bfs_setup(argc, argv, &n, &nodes, &edges, &edge_count, &frontier, &visited, &next, &cost);

    double t0 = rd_now();
    bool again;
    do {
        again = false;
#pragma omp parallel for schedule(static)
        for (int tid = 0; tid < n; tid++) {
            if (frontier[tid]) {
                frontier[tid] = false;
                int end = nodes[tid].start + nodes[tid].count;
                for (int i = nodes[tid].start; i < end; i++) {
                    int id = edges[i];
                    if (!visited[id]) {
                        cost[id] = cost[tid] + 1;
                        next[id] = true;
                    }
                }
            }
        }
#pragma omp parallel for schedule(static) reduction(|| : again)
        for (int tid = 0; tid < n; tid++) {
            if (next[tid]) {
                frontier[tid] = true;
                visited[tid] = true;
                again = true;
                next[tid] = false;
            }
        }
    } while (again);
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    bfs_write(argv[2], n, cost);
    RD_FREE(nodes, edges, frontier, visited, next, cost);
    return 0;
}
