// Breadth-first search over a CSR graph, frontier style: one kernel
// expands the frontier, a second one commits the next frontier and raises
// a __device__ flag; the host loops while the flag is set.
#include <vector>
#include <cstdio>
#include <cstdlib>

#include "check.h"

__device__ bool d_changed;

__global__ void expand(const int *row, const int *col, bool *frontier, bool *next, const bool *visited, int *cost, int n) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || !frontier[v]) return;
    frontier[v] = false;
    for (int e = row[v]; e < row[v + 1]; ++e) {
        int u = col[e];
        if (!visited[u]) {
            cost[u] = cost[v] + 1;
            next[u] = true;
        }
    }
}

__global__ void commit(bool *frontier, bool *next, bool *visited, int n) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || !next[v]) return;
    frontier[v] = true;
    visited[v] = true;
    d_changed = true;
    next[v] = false;
}

int main() {
    const int n = 300;
    std::vector<int> row(n + 1), col;
    for (int v = 0; v < n; ++v) {
        row[v] = (int)col.size();
        if (v % 10 == 9) continue;  // a few sinks
        col.push_back((v * 7 + 3) % n);
        col.push_back((v * 13 + 5) % n);
        if (v % 3 == 0) col.push_back((v + 1) % n);
    }
    row[n] = (int)col.size();
    std::vector<int> cost(n, -1);
    std::vector<char> hfront(n, 0), hvisit(n, 0);
    cost[0] = 0;
    hfront[0] = 1;
    hvisit[0] = 1;
    int *drow, *dcol, *dcost;
    bool *dfront, *dnext, *dvisit;
    alloc_copy(&drow, row.data(), (n + 1) * sizeof(int));
    alloc_copy(&dcol, col.data(), col.size() * sizeof(int));
    alloc_copy(&dcost, cost.data(), n * sizeof(int));
    alloc_copy(&dfront, hfront.data(), n * sizeof(bool));
    CHECK(cudaMalloc(&dnext, n * sizeof(bool)));
    alloc_copy(&dvisit, hvisit.data(), n * sizeof(bool));
    CHECK(cudaMemset(dnext, 0, n * sizeof(bool)));
    int blocks = (n + 127) / 128, levels = 0;
    bool changed = true;
    while (changed) {
        changed = false;
        CHECK(cudaMemcpyToSymbol(d_changed, &changed, sizeof(bool)));
        expand<<<blocks, 128>>>(drow, dcol, dfront, dnext, dvisit, dcost, n);
        commit<<<blocks, 128>>>(dfront, dnext, dvisit, n);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpyFromSymbol(&changed, d_changed, sizeof(bool)));
        ++levels;
    }
    std::vector<int> got(n);
    CHECK(cudaMemcpy(got.data(), dcost, n * sizeof(int), cudaMemcpyDeviceToHost));
    // Host BFS with a queue.
    std::vector<int> want(n, -1), queue(1, 0);
    want[0] = 0;
    for (size_t q = 0; q < queue.size(); ++q) {
        int v = queue[q];
        for (int e = row[v]; e < row[v + 1]; ++e)
            if (want[col[e]] < 0) {
                want[col[e]] = want[v] + 1;
                queue.push_back(col[e]);
            }
    }
    int bad = 0;
    for (int v = 0; v < n; ++v)
        if (got[v] != want[v]) {
            if (bad < 5) printf("node %d: cost %d want %d\n", v, got[v], want[v]);
            ++bad;
        }
    cudaFree(drow);
    cudaFree(dcol);
    cudaFree(dcost);
    cudaFree(dfront);
    cudaFree(dnext);
    cudaFree(dvisit);
    if (bad) {
        printf("FAIL bfs_frontier (%d mismatches, %d levels)\n", bad, levels);
        return 1;
    }
    printf("PASS bfs_frontier\n");
    return 0;
}
