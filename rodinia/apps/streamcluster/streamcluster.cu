/* streamcluster: the local search of a facility-location clustering, built
 * around pgain.  For each candidate point x, the host numbers the open
 * centres and copies the points' costs and centres to the device; one thread
 * per point then computes the point's weighted squared distance to x (the
 * block first stages x's coordinates in shared memory) and writes into its
 * own work row either what it saves by switching to x (last column) or what
 * closing its centre would save (its centre's column).  The work rows come
 * back, the host sums them per centre and opens x if the total cost drops.
 * Coordinates live on the device column-major (coordinate i of every point
 * contiguous), copied once. */
#include <cuda_runtime.h>
#include "streamcluster_common.h"

#define THREADS 256

__global__ void sc_gain(int n, int dim, int x, int stride, const float *coord_t,
                        const float *weight, const float *cost, const int *assign,
                        const int *centre_table, char *switched, float *work) {
    extern __shared__ float candidate[];
    for (int i = threadIdx.x; i < dim; i += blockDim.x) candidate[i] = coord_t[(size_t)i * n + x];
    __syncthreads();

    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p < n) {
        float d = 0.0f;
        for (int i = 0; i < dim; i++) {
            float t = coord_t[(size_t)i * n + p] - candidate[i];
            d += t * t;
        }
        float x_cost = d * weight[p];
        float current = cost[p];
        if (x_cost < current) {
            switched[p] = 1;
            work[(size_t)p * stride + stride - 1] = x_cost - current;
        } else {
            switched[p] = 0;
            work[(size_t)p * stride + centre_table[assign[p]]] = current - x_cost;
        }
    }
}

int main(int argc, char **argv) {
    int n, dim, candidates;
    sc_args(argc, argv, &n, &dim, &candidates);
    sc_state s;
    sc_init(&s, n, dim);
    size_t work_floats = (size_t)n * (SC_MAX_CENTRES + 1);
    float *work = (float *)malloc(work_floats * sizeof(float));
    char *switched = (char *)malloc((size_t)n);
    float lower[SC_MAX_CENTRES];
    float *coord_t = (float *)malloc((size_t)n * dim * sizeof(float));
    for (int p = 0; p < n; p++)
        for (int i = 0; i < dim; i++) coord_t[(size_t)i * n + p] = s.coord[(size_t)p * dim + i];
    rd_rng r = rd_seed(29);

    float *d_coord_t, *d_weight, *d_cost, *d_work;
    int *d_assign, *d_centre_table;
    char *d_switched;
    RD_CUDA_CHECK(cudaMalloc(&d_coord_t, (size_t)n * dim * sizeof(float)));
    RD_CUDA_CHECK(cudaMalloc(&d_weight, (size_t)n * sizeof(float)));
    RD_CUDA_CHECK(cudaMalloc(&d_cost, (size_t)n * sizeof(float)));
    RD_CUDA_CHECK(cudaMalloc(&d_assign, (size_t)n * sizeof(int)));
    RD_CUDA_CHECK(cudaMalloc(&d_centre_table, (size_t)n * sizeof(int)));
    RD_CUDA_CHECK(cudaMalloc(&d_switched, (size_t)n));
    RD_CUDA_CHECK(cudaMalloc(&d_work, work_floats * sizeof(float)));
    int blocks = (n + THREADS - 1) / THREADS;
    size_t shared = (size_t)dim * sizeof(float);

    double t0 = rd_now();
    RD_CUDA_CHECK(cudaMemcpy(d_coord_t, coord_t, (size_t)n * dim * sizeof(float),
                             cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_weight, s.weight, (size_t)n * sizeof(float), cudaMemcpyHostToDevice));
    for (int it = 0; it < candidates; it++) {
        int x = sc_candidate(&s, &r);
        if (x < 0) continue;
        sc_number_centres(&s);
        int k = s.centres, stride = k + 1;
        size_t rows = (size_t)n * stride * sizeof(float);
        RD_CUDA_CHECK(cudaMemcpy(d_cost, s.cost, (size_t)n * sizeof(float), cudaMemcpyHostToDevice));
        RD_CUDA_CHECK(cudaMemcpy(d_assign, s.assign, (size_t)n * sizeof(int), cudaMemcpyHostToDevice));
        RD_CUDA_CHECK(cudaMemcpy(d_centre_table, s.centre_table, (size_t)n * sizeof(int),
                                 cudaMemcpyHostToDevice));
        RD_CUDA_CHECK(cudaMemset(d_work, 0, rows));
        sc_gain<<<blocks, THREADS, shared>>>(n, dim, x, stride, d_coord_t, d_weight, d_cost,
                                             d_assign, d_centre_table, d_switched, d_work);
        RD_CUDA_CHECK(cudaGetLastError());
        RD_CUDA_CHECK(cudaMemcpy(work, d_work, rows, cudaMemcpyDeviceToHost));
        RD_CUDA_CHECK(cudaMemcpy(switched, d_switched, (size_t)n, cudaMemcpyDeviceToHost));
        for (int c = 0; c < k; c++) lower[c] = s.z + sc_column_sum(work, n, stride, c);
        sc_decide(&s, x, work, switched, lower);
    }
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    sc_write(argv[4], &s);
    RD_CUDA_FREE(d_coord_t, d_weight, d_cost, d_assign, d_centre_table, d_switched, d_work);
    sc_free(&s);
    RD_FREE(work, switched, coord_t);
    return 0;
}
