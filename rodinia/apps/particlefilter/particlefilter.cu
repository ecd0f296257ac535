/* particlefilter: per frame, likelihood_kernel moves every particle by the
 * motion model plus noise, scores it against the frame's pixels under the
 * disk, weighs it, and sums its block's weights in shared memory;
 * sum_kernel (one thread) totals the block sums and draws the resampling
 * offset; normalize_weights_kernel normalises the weights, builds the CDF
 * (one thread) and the systematic resampling points; find_index_kernel
 * picks, for each point, the first particle whose CDF reaches it.  One
 * thread per particle, 512-thread blocks. */
#include <cuda_runtime.h>
#include "particlefilter_common.h"

#define T PF_THREADS

__global__ void likelihood_kernel(double *arrayX, double *arrayY, const double *xj,
                                  const double *yj, int *ind, const int *objxy, double *likelihood,
                                  const unsigned char *I, double *weights, int np, int count_ones,
                                  int max_size, int k, int iszy, int nfr, int *seed,
                                  double *partial_sums) {
    __shared__ double buffer[T];
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < np) {
        arrayX[i] = xj[i];
        arrayY[i] = yj[i];
        weights[i] = 1.0 / (double)np;
        arrayX[i] = arrayX[i] + 1.0 + 5.0 * pf_randn(seed, i);
        arrayY[i] = arrayY[i] - 2.0 + 2.0 * pf_randn(seed, i);
    }
    __syncthreads();
    if (i < np) {
        for (int y = 0; y < count_ones; y++) {
            int ind_x = pf_round(arrayX[i]) + objxy[y * 2 + 1];
            int ind_y = pf_round(arrayY[i]) + objxy[y * 2];
            int at = abs(ind_x * iszy * nfr + ind_y * nfr + k);
            ind[i * count_ones + y] = at >= max_size ? 0 : at;
        }
        double sum = 0.0;
        for (int y = 0; y < count_ones; y++) {
            double v = (double)I[ind[i * count_ones + y]];
            sum += ((v - 100.0) * (v - 100.0) - (v - 228.0) * (v - 228.0)) / 50.0;
        }
        likelihood[i] = sum / count_ones;
        weights[i] = weights[i] * exp(likelihood[i]);
    }
    buffer[threadIdx.x] = 0.0;
    __syncthreads();
    if (i < np) buffer[threadIdx.x] = weights[i];
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) buffer[threadIdx.x] += buffer[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) partial_sums[blockIdx.x] = buffer[0];
}

/* One thread totals the block sums and draws the first resampling point
 * (from particle 0's generator). */
__global__ void sum_kernel(double *partial_sums, double *u, int *seed, int np, int blocks) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i == 0) {
        double sum = 0.0;
        for (int x = 0; x < blocks; x++) sum += partial_sums[x];
        partial_sums[0] = sum;
        u[0] = (1.0 / (double)np) * pf_randu(seed, 0);
    }
}

/* Thread 0 of the grid builds the CDF from the normalised weights
 * (computing them itself, so it need not wait for other blocks); every
 * particle's resampling point is u[0] + i / np. The weights themselves are
 * normalised in place by find_index_kernel, after this launch: doing it here
 * would race with thread 0's reads of other blocks' weights. */
__global__ void normalize_weights_kernel(double *weights, int np, const double *partial_sums,
                                         double *CDF, double *u) {
    __shared__ double u1, sum_weights;
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (threadIdx.x == 0) {
        sum_weights = partial_sums[0];
        u1 = u[0];
    }
    __syncthreads();
    if (i == 0) {
        double c = weights[0] / sum_weights;
        CDF[0] = c;
        for (int x = 1; x < np; x++) {
            c = weights[x] / sum_weights + c;
            CDF[x] = c;
        }
    }
    __syncthreads();
    if (i < np && i > 0) u[i] = u1 + i / (double)np;
}

__global__ void find_index_kernel(const double *arrayX, const double *arrayY, const double *CDF,
                                  const double *u, double *xj, double *yj, int np,
                                  double *weights, const double *partial_sums) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < np) {
        weights[i] = weights[i] / partial_sums[0];
        int index = -1;
        for (int x = 0; x < np; x++)
            if (CDF[x] >= u[i]) {
                index = x;
                break;
            }
        if (index == -1) index = np - 1;
        xj[i] = arrayX[index];
        yj[i] = arrayY[index];
    }
}

int main(int argc, char **argv) {
    pf_args a = pf_parse(argc, argv);
    int np = a.np;
    unsigned char *video = pf_video(&a);
    int count_ones = pf_disk(NULL);
    int *objxy = (int *)malloc(2 * count_ones * sizeof(int));
    pf_disk(objxy);
    int *seed = pf_seeds(np);
    int max_size = a.iszx * a.iszy * a.nfr;
    size_t dbytes = (size_t)np * sizeof(double);
    double *xj = (double *)malloc(dbytes), *yj = (double *)malloc(dbytes);
    double *arrayX = (double *)malloc(dbytes), *arrayY = (double *)malloc(dbytes);
    double *weights = (double *)malloc(dbytes);
    int cx, cy;
    pf_centre(&a, 0, &cx, &cy);
    for (int i = 0; i < np; i++) {
        xj[i] = cx;
        yj[i] = cy;
    }
    int blocks = (np + T - 1) / T;

    double *d_arrayX, *d_arrayY, *d_xj, *d_yj, *d_CDF, *d_u, *d_likelihood, *d_weights,
        *d_partial;
    unsigned char *d_I;
    int *d_objxy, *d_ind, *d_seed;
    RD_CUDA_CHECK(cudaMalloc(&d_arrayX, dbytes));
    RD_CUDA_CHECK(cudaMalloc(&d_arrayY, dbytes));
    RD_CUDA_CHECK(cudaMalloc(&d_xj, dbytes));
    RD_CUDA_CHECK(cudaMalloc(&d_yj, dbytes));
    RD_CUDA_CHECK(cudaMalloc(&d_CDF, dbytes));
    RD_CUDA_CHECK(cudaMalloc(&d_u, dbytes));
    RD_CUDA_CHECK(cudaMalloc(&d_likelihood, dbytes));
    RD_CUDA_CHECK(cudaMalloc(&d_weights, dbytes));
    RD_CUDA_CHECK(cudaMalloc(&d_partial, (size_t)blocks * sizeof(double)));
    RD_CUDA_CHECK(cudaMalloc(&d_I, (size_t)max_size));
    RD_CUDA_CHECK(cudaMalloc(&d_objxy, 2 * count_ones * sizeof(int)));
    RD_CUDA_CHECK(cudaMalloc(&d_ind, (size_t)count_ones * np * sizeof(int)));
    RD_CUDA_CHECK(cudaMalloc(&d_seed, (size_t)np * sizeof(int)));

    double t0 = rd_now();
    RD_CUDA_CHECK(cudaMemcpy(d_I, video, (size_t)max_size, cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_objxy, objxy, 2 * count_ones * sizeof(int), cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_xj, xj, dbytes, cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_yj, yj, dbytes, cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_seed, seed, (size_t)np * sizeof(int), cudaMemcpyHostToDevice));
    for (int k = 1; k < a.nfr; k++) {
        likelihood_kernel<<<blocks, T>>>(d_arrayX, d_arrayY, d_xj, d_yj, d_ind, d_objxy,
                                         d_likelihood, d_I, d_weights, np, count_ones, max_size, k,
                                         a.iszy, a.nfr, d_seed, d_partial);
        sum_kernel<<<blocks, T>>>(d_partial, d_u, d_seed, np, blocks);
        normalize_weights_kernel<<<blocks, T>>>(d_weights, np, d_partial, d_CDF, d_u);
        find_index_kernel<<<blocks, T>>>(d_arrayX, d_arrayY, d_CDF, d_u, d_xj, d_yj, np, d_weights,
                                         d_partial);
    }
    RD_CUDA_CHECK(cudaGetLastError());
    RD_CUDA_CHECK(cudaMemcpy(arrayX, d_arrayX, dbytes, cudaMemcpyDeviceToHost));
    RD_CUDA_CHECK(cudaMemcpy(arrayY, d_arrayY, dbytes, cudaMemcpyDeviceToHost));
    RD_CUDA_CHECK(cudaMemcpy(weights, d_weights, dbytes, cudaMemcpyDeviceToHost));
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    pf_write(argv[5], &a, arrayX, arrayY, weights);
    RD_CUDA_FREE(d_arrayX, d_arrayY, d_xj, d_yj, d_CDF, d_u, d_likelihood, d_weights, d_partial,
                 d_I, d_objxy, d_ind, d_seed);
    RD_FREE(video, objxy, seed, xj, yj, arrayX, arrayY, weights);
    return 0;
}
