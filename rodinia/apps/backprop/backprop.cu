/* backprop: the two data-parallel phases run on the device.
 * Forward: blocks of 16x16 threads each take 16 input units; every thread
 * multiplies one weight by its input, and a tree reduction over the block's
 * rows in shared memory leaves one partial sum per hidden unit per block,
 * which the host adds up.  Adjust: one thread per weight applies the
 * gradient step with momentum. */
#include <cuda_runtime.h>
#include "backprop_common.h"

#define TILE 16

__global__ void bp_layer_forward(const float *input, const float *weights, float *partial,
                                 int in, int hid) {
    __shared__ float node[TILE];
    __shared__ float prod[TILE][TILE];
    int by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    int k = TILE * by + ty + 1;      /* input unit */
    int j = tx + 1;                  /* hidden unit */
    int w = (hid + 1) * k + j;

    if (tx == 0) node[ty] = input[k];
    __syncthreads();
    prod[ty][tx] = weights[w] * node[ty];
    __syncthreads();
    for (int s = 1; s < TILE; s *= 2) {
        if (ty % (2 * s) == 0) prod[ty][tx] += prod[ty + s][tx];
        __syncthreads();
    }
    if (ty == 0) partial[by * hid + tx] = prod[0][tx];
}

__global__ void bp_adjust_weights(const float *delta, int hid, const float *input, int in,
                                  float *weights, float *old_change) {
    int by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    int k = TILE * by + ty + 1;
    int j = tx + 1;
    int w = (hid + 1) * k + j;
    float change = BP_ETA * delta[j] * input[k] + BP_MOMENTUM * old_change[w];
    weights[w] += change;
    old_change[w] = change;
    __syncthreads();
    /* The bias row, once. */
    if (ty == 0 && by == 0) {
        float bias = BP_ETA * delta[j] + BP_MOMENTUM * old_change[j];
        weights[j] += bias;
        old_change[j] = bias;
    }
}

int main(int argc, char **argv) {
    int in = bp_parse(argc, argv, TILE);
    bp_net net;
    bp_generate(&net, in);
    int blocks = in / TILE;
    int hid = BP_HIDDEN;
    size_t w = (size_t)(in + 1) * (hid + 1);
    float *partial = (float *)malloc((size_t)blocks * hid * sizeof(float));

    float *d_input, *d_w, *d_dw, *d_partial, *d_delta;
    RD_CUDA_CHECK(cudaMalloc(&d_input, (in + 1) * sizeof(float)));
    RD_CUDA_CHECK(cudaMalloc(&d_w, w * sizeof(float)));
    RD_CUDA_CHECK(cudaMalloc(&d_dw, w * sizeof(float)));
    RD_CUDA_CHECK(cudaMalloc(&d_partial, (size_t)blocks * hid * sizeof(float)));
    RD_CUDA_CHECK(cudaMalloc(&d_delta, (hid + 1) * sizeof(float)));
    dim3 grid(1, blocks);
    dim3 block(TILE, TILE);

    double t0 = rd_now();
    RD_CUDA_CHECK(cudaMemcpy(d_input, net.input, (in + 1) * sizeof(float), cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_w, net.w_ih, w * sizeof(float), cudaMemcpyHostToDevice));
    RD_CUDA_CHECK(cudaMemcpy(d_dw, net.dw_ih, w * sizeof(float), cudaMemcpyHostToDevice));
    bp_layer_forward<<<grid, block>>>(d_input, d_w, d_partial, in, hid);
    RD_CUDA_CHECK(cudaGetLastError());
    RD_CUDA_CHECK(cudaMemcpy(partial, d_partial, (size_t)blocks * hid * sizeof(float),
                             cudaMemcpyDeviceToHost));
    float sums[BP_HIDDEN + 1];
    for (int j = 1; j <= hid; j++) {
        float s = net.w_ih[j]; /* the bias row */
        for (int b = 0; b < blocks; b++) s += partial[b * hid + j - 1];
        sums[j] = s;
    }
    bp_finish_forward_and_errors(&net, sums);
    RD_CUDA_CHECK(cudaMemcpy(d_delta, net.hidden_delta, (hid + 1) * sizeof(float),
                             cudaMemcpyHostToDevice));
    bp_adjust_weights<<<grid, block>>>(d_delta, hid, d_input, in, d_w, d_dw);
    RD_CUDA_CHECK(cudaGetLastError());
    RD_CUDA_CHECK(cudaMemcpy(net.w_ih, d_w, w * sizeof(float), cudaMemcpyDeviceToHost));
    RD_CUDA_CHECK(cudaMemcpy(net.dw_ih, d_dw, w * sizeof(float), cudaMemcpyDeviceToHost));
    double t1 = rd_now();

    rd_report_time(t1 - t0);
    bp_write(argv[2], &net);
    RD_CUDA_FREE(d_input, d_w, d_dw, d_partial, d_delta);
    free(partial);
    return 0;
}
