/* nn: the k records nearest to a target point.  One thread per record
 * computes its Euclidean distance (in degrees) to the target; the distances
 * are copied back and the host picks the k smallest.  The grid is 2-D when
 * it needs more than 65535 blocks.  Several target points are answered in
 * turn, one launch and one copy back each. */
#include <cuda_runtime.h>
#include "nn_input.h"

#define THREADS 256
#define MAX_GRID_X 65535

__global__ void nn_distance(const nn_record *rec, float *dist, int n, float lat, float lng) {
    int id = blockDim.x * (gridDim.x * blockIdx.y + blockIdx.x) + threadIdx.x;
    if (id < n) {
        const nn_record *p = &rec[id];
        float dlat = lat - p->lat;
        float dlng = lng - p->lng;
        dist[id] = sqrtf(dlat * dlat + dlng * dlng);
    }
}

int main(int argc, char **argv) {
    int n, k, queries, *index, *best_index;
    float *dist, *best_dist;
    nn_record *rec = nn_setup(argc, argv, &n, &k, &queries, &dist, &index, &best_index, &best_dist);

    int blocks = (n + THREADS - 1) / THREADS;
    dim3 grid(blocks < MAX_GRID_X ? blocks : MAX_GRID_X, (blocks + MAX_GRID_X - 1) / MAX_GRID_X);

    nn_record *d_rec;
    float *d_dist;
    RD_CUDA_CHECK(cudaMalloc(&d_rec, (size_t)n * sizeof(nn_record)));
    RD_CUDA_CHECK(cudaMalloc(&d_dist, (size_t)n * sizeof(float)));

    double t0 = rd_now();
    RD_CUDA_CHECK(cudaMemcpy(d_rec, rec, (size_t)n * sizeof(nn_record), cudaMemcpyHostToDevice));
    for (int q = 0; q < queries; q++) {
        nn_record t = nn_query(q);
        nn_distance<<<grid, THREADS>>>(d_rec, d_dist, n, t.lat, t.lng);
        RD_CUDA_CHECK(cudaGetLastError());
        RD_CUDA_CHECK(cudaMemcpy(dist, d_dist, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost));
        nn_select(n, k, dist, index);
        for (int i = 0; i < k; i++) {
            best_index[q * k + i] = index[i];
            best_dist[q * k + i] = dist[i];
        }
    }
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    nn_write(argv[4], queries, k, best_index, best_dist);
    RD_CUDA_FREE(d_rec, d_dist);
    RD_FREE(rec, dist, index, best_index, best_dist);
    return 0;
}
