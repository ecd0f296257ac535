/* bfs: breadth-first search from node 0, level by level.  The first kernel
 * expands the frontier (one thread per node: a frontier node marks its
 * unvisited neighbours for the next level and sets their cost); the second
 * makes the marked nodes the new frontier and raises a flag the host polls. */
#include <cuda_runtime.h>
#include "bfs_graph.h"

#define THREADS 512

__global__ void bfs_expand(const bfs_node *nodes, const int *edges, bool *frontier,
                           bool *next, const bool *visited, int *cost, int n) {
    int tid = blockIdx.x * THREADS + threadIdx.x;
    if (tid < n && frontier[tid]) {
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

__global__ void bfs_advance(bool *frontier, bool *next, bool *visited, bool *again, int n) {
    int tid = blockIdx.x * THREADS + threadIdx.x;
    if (tid < n && next[tid]) {
        frontier[tid] = true;
        visited[tid] = true;
        *again = true;
        next[tid] = false;
    }
}

int main(int argc, char **argv) {
    int n, *edges, edge_count, *cost;
    bfs_node *nodes;
    bool *frontier, *visited, *next;
    bfs_setup(argc, argv, &n, &nodes, &edges, &edge_count, &frontier, &visited, &next, &cost);

    bfs_node *d_nodes;
    int *d_edges, *d_cost;
    bool *d_frontier, *d_next, *d_visited, *d_again;
    RD_CUDA_CHECK(cudaMalloc(&d_nodes, (size_t)n * sizeof(bfs_node)));
    RD_CUDA_CHECK(cudaMalloc(&d_edges, (size_t)edge_count * sizeof(int)));
    RD_CUDA_CHECK(cudaMalloc(&d_cost, (size_t)n * sizeof(int)));
    RD_CUDA_CHECK(cudaMalloc(&d_frontier, n * sizeof(bool)));
    RD_CUDA_CHECK(cudaMalloc(&d_next, n * sizeof(bool)));
    RD_CUDA_CHECK(cudaMalloc(&d_visited, n * sizeof(bool)));
    RD_CUDA_CHECK(cudaMalloc(&d_again, sizeof(bool)));
    int blocks = (n + THREADS - 1) / THREADS;

    double t0 = rd_now();
    RD_CUDA_CHECK(cudaMemcpy(d_nodes, nodes, (size_t)n * sizeof(bfs_node), cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_edges, edges, (size_t)edge_count * sizeof(int), cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_cost, cost, (size_t)n * sizeof(int), cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_frontier, frontier, n * sizeof(bool), cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_next, next, n * sizeof(bool), cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_visited, visited, n * sizeof(bool), cudaMemcpyHostToDevice));
    bool again;
    do {
        again = false;
        RD_CUDA_CHECK(cudaMemcpy(d_again, &again, sizeof(bool), cudaMemcpyHostToDevice));
        bfs_expand<<<blocks, THREADS>>>(d_nodes, d_edges, d_frontier, d_next, d_visited, d_cost, n);
        bfs_advance<<<blocks, THREADS>>>(d_frontier, d_next, d_visited, d_again, n);
        RD_CUDA_CHECK(cudaMemcpy(&again, d_again, sizeof(bool), cudaMemcpyDeviceToHost));
    } while (again);
    RD_CUDA_CHECK(cudaMemcpy(cost, d_cost, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost));
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    bfs_write(argv[2], n, cost);
    RD_CUDA_FREE(d_nodes, d_edges, d_cost, d_frontier, d_next, d_visited, d_again);
    RD_FREE(nodes, edges, frontier, visited, next, cost);
    return 0;
}
