// corpus: runtime-api
// cucc-flags: -lcudnn
// cuDNN in a stream with kernels: a kernel fills the input and the filter,
// then convolution (algorithm from cudnnGetConvolutionForwardAlgorithm_v7,
// workspace from cudaMalloc), bias (cudnnAddTensor), relu, 2x2 max pooling
// and a per-channel softmax run through cuDNN on the same stream, and a
// second kernel scales the softmax output after them. Everything is queued
// behind a host-function gate that main opens only after the last call has
// returned: the cuDNN calls must be asynchronous and ordered with the
// kernels (a library ignoring the stream would compute on the unfilled
// input, one that waited for the stream would never return). The result is
// checked on the host against plain loops (relative tolerance 1e-4). Also:
// status codes for an unimplemented algorithm and mismatched shapes.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <ctime>
#include <vector>
#include <cuda_runtime.h>
#include <cudnn.h>
#include "check.h"

#define CHECK_CUDA(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)
#define CHECK_DNN(x) do { cudnnStatus_t s_ = (x); if (s_ != CUDNN_STATUS_SUCCESS) { \
    printf("%s:%d: %s\n", __FILE__, __LINE__, cudnnGetErrorString(s_)); return 1; } } while (0)

static const int N = 2, C = 3, H = 9, W = 8, K = 4, R = 3, S = 3;
static const int PH = H / 2, PW = W / 2;

__global__ void fill(float *a, int n, float scale, int mod) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = scale * (float)((i * 7 + 3) % mod - mod / 2);
}

__global__ void scale_by(float *a, int n, float s) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] *= s;
}

static float host_fill(int i, float scale, int mod) { return scale * (float)((i * 7 + 3) % mod - mod / 2); }

struct Gate {
    volatile int open;
    int timed_out;
};

static void CUDART_CB hold(void *arg) {
    Gate *g = (Gate *)arg;
    for (int i = 0; i < 20000 && !g->open; ++i) {
        struct timespec ts = {0, 100000};
        nanosleep(&ts, nullptr);
    }
    if (!g->open) g->timed_out = 1;
}

int main() {
    const int nx = N * C * H * W, nw = K * C * R * S, ny = N * K * H * W, np = N * K * PH * PW;
    float *x, *w, *b, *y, *p, *sm;
    CHECK_CUDA(cudaMalloc(&x, nx * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&w, nw * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&b, K * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&y, ny * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&p, np * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&sm, np * sizeof(float)));
    CHECK_CUDA(cudaMemset(x, 0, nx * sizeof(float)));
    float hb[K] = {0.25f, -0.5f, 0.125f, 1.0f};
    CHECK_CUDA(cudaMemcpy(b, hb, sizeof(hb), cudaMemcpyHostToDevice));

    cudaStream_t st;
    CHECK_CUDA(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    cudnnHandle_t h;
    CHECK_DNN(cudnnCreate(&h));
    CHECK_DNN(cudnnSetStream(h, st));
    cudaStream_t got;
    CHECK_DNN(cudnnGetStream(h, &got));
    int bad = got != st;

    cudnnTensorDescriptor_t xd, yd, bd, pd;
    cudnnFilterDescriptor_t wd;
    cudnnConvolutionDescriptor_t cd;
    cudnnActivationDescriptor_t ad;
    cudnnPoolingDescriptor_t pool;
    CHECK_DNN(cudnnCreateTensorDescriptor(&xd));
    CHECK_DNN(cudnnCreateTensorDescriptor(&yd));
    CHECK_DNN(cudnnCreateTensorDescriptor(&bd));
    CHECK_DNN(cudnnCreateTensorDescriptor(&pd));
    CHECK_DNN(cudnnCreateFilterDescriptor(&wd));
    CHECK_DNN(cudnnCreateConvolutionDescriptor(&cd));
    CHECK_DNN(cudnnCreateActivationDescriptor(&ad));
    CHECK_DNN(cudnnCreatePoolingDescriptor(&pool));
    CHECK_DNN(cudnnSetTensor4dDescriptor(xd, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, N, C, H, W));
    CHECK_DNN(cudnnSetFilter4dDescriptor(wd, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, K, C, R, S));
    CHECK_DNN(cudnnSetConvolution2dDescriptor(cd, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
    int on, oc, oh, ow;
    CHECK_DNN(cudnnGetConvolution2dForwardOutputDim(cd, xd, wd, &on, &oc, &oh, &ow));
    if (on != N || oc != K || oh != H || ow != W) {
        printf("output dims %d %d %d %d\n", on, oc, oh, ow);
        return 1;
    }
    CHECK_DNN(cudnnSetTensor4dDescriptor(yd, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, N, K, H, W));
    CHECK_DNN(cudnnSetTensor4dDescriptor(bd, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, K, 1, 1));
    CHECK_DNN(cudnnSetTensor4dDescriptor(pd, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, N, K, PH, PW));
    CHECK_DNN(cudnnSetActivationDescriptor(ad, CUDNN_ACTIVATION_RELU, CUDNN_NOT_PROPAGATE_NAN, 0.0));
    CHECK_DNN(cudnnSetPooling2dDescriptor(pool, CUDNN_POOLING_MAX, CUDNN_NOT_PROPAGATE_NAN, 2, 2, 0, 0, 2, 2));

    // Algorithm and workspace as a program would choose them.
    cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
    int returned = 0;
    CHECK_DNN(cudnnGetConvolutionForwardAlgorithm_v7(h, xd, wd, cd, yd, CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &returned, perf));
    if (returned < 1 || perf[0].status != CUDNN_STATUS_SUCCESS) {
        printf("no algorithm (%d)\n", returned);
        return 1;
    }
    cudnnConvolutionFwdAlgo_t algo = perf[0].algo;
    size_t ws_size = 0;
    CHECK_DNN(cudnnGetConvolutionForwardWorkspaceSize(h, xd, wd, cd, yd, algo, &ws_size));
    if (ws_size != perf[0].memory) {
        printf("workspace %zu vs %zu\n", ws_size, perf[0].memory);
        ++bad;
    }
    void *ws = nullptr;
    if (ws_size) CHECK_CUDA(cudaMalloc(&ws, ws_size));

    // Errors are reported without queueing anything.
    float one = 1.0f, zero = 0.0f, two = 2.0f;
    if (cudnnConvolutionForward(h, &one, xd, x, wd, w, cd, CUDNN_CONVOLUTION_FWD_ALGO_FFT, nullptr, 0, &zero, yd, y) !=
        CUDNN_STATUS_NOT_SUPPORTED) {
        printf("FFT should be CUDNN_STATUS_NOT_SUPPORTED\n");
        ++bad;
    }
    if (cudnnConvolutionForward(h, &one, xd, x, wd, w, cd, algo, ws, ws_size, &zero, pd, y) != CUDNN_STATUS_BAD_PARAM) {
        printf("a wrong output shape should be CUDNN_STATUS_BAD_PARAM\n");
        ++bad;
    }

    // The pipeline, all behind the gate.
    Gate gate = {0, 0};
    CHECK_CUDA(cudaLaunchHostFunc(st, hold, &gate));
    fill<<<(nx + 127) / 128, 128, 0, st>>>(x, nx, 0.25f, 9);
    fill<<<(nw + 127) / 128, 128, 0, st>>>(w, nw, 0.125f, 7);
    CHECK_DNN(cudnnConvolutionForward(h, &one, xd, x, wd, w, cd, algo, ws, ws_size, &zero, yd, y));
    CHECK_DNN(cudnnAddTensor(h, &one, bd, b, &one, yd, y));
    CHECK_DNN(cudnnActivationForward(h, ad, &one, yd, y, &zero, yd, y));
    CHECK_DNN(cudnnPoolingForward(h, pool, &one, yd, y, &zero, pd, p));
    CHECK_DNN(cudnnSoftmaxForward(h, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_CHANNEL, &one, pd, p, &zero, pd, sm));
    scale_by<<<(np + 127) / 128, 128, 0, st>>>(sm, np, two);
    if (cudaStreamQuery(st) != cudaErrorNotReady) {
        printf("the stream finished before the gate opened\n");
        ++bad;
    }
    gate.open = 1;
    std::vector<float> hp(np), hs(np);
    CHECK_CUDA(cudaMemcpyAsync(hp.data(), p, np * sizeof(float), cudaMemcpyDeviceToHost, st));
    CHECK_CUDA(cudaMemcpyAsync(hs.data(), sm, np * sizeof(float), cudaMemcpyDeviceToHost, st));
    CHECK_CUDA(cudaStreamSynchronize(st));
    if (gate.timed_out) {
        printf("the gate timed out: a call waited for the stream\n");
        ++bad;
    }

    // Host reference.
    std::vector<double> ry(ny), rp(np);
    for (int n = 0; n < N; ++n)
        for (int k = 0; k < K; ++k)
            for (int i = 0; i < H; ++i)
                for (int j = 0; j < W; ++j) {
                    double s = 0;
                    for (int c = 0; c < C; ++c)
                        for (int r = 0; r < R; ++r)
                            for (int q = 0; q < S; ++q) {
                                int ii = i + r - 1, jj = j + q - 1;
                                if (ii < 0 || ii >= H || jj < 0 || jj >= W) continue;
                                s += (double)host_fill(((n * C + c) * H + ii) * W + jj, 0.25f, 9) *
                                     host_fill(((k * C + c) * R + r) * S + q, 0.125f, 7);
                            }
                    s += hb[k];
                    ry[((n * K + k) * H + i) * W + j] = s > 0 ? s : 0;
                }
    for (int n = 0; n < N; ++n)
        for (int k = 0; k < K; ++k)
            for (int i = 0; i < PH; ++i)
                for (int j = 0; j < PW; ++j) {
                    double m = -1e30;
                    for (int r = 0; r < 2; ++r)
                        for (int q = 0; q < 2; ++q) m = fmax(m, ry[((n * K + k) * H + 2 * i + r) * W + 2 * j + q]);
                    rp[((n * K + k) * PH + i) * PW + j] = m;
                }
    for (int idx = 0; idx < np; ++idx) {
        if (fabs(hp[idx] - rp[idx]) > 1e-4 * (1 + fabs(rp[idx]))) {
            if (bad < 10) printf("pool[%d] = %f, want %f\n", idx, hp[idx], rp[idx]);
            ++bad;
        }
    }
    for (int n = 0; n < N; ++n)
        for (int i = 0; i < PH * PW; ++i) {
            double mx = -1e30, sum = 0;
            for (int k = 0; k < K; ++k) mx = fmax(mx, rp[(n * K + k) * PH * PW + i]);
            for (int k = 0; k < K; ++k) sum += exp(rp[(n * K + k) * PH * PW + i] - mx);
            for (int k = 0; k < K; ++k) {
                int idx = (n * K + k) * PH * PW + i;
                double want = 2.0 * exp(rp[idx] - mx) / sum;
                if (fabs(hs[idx] - want) > 1e-4 * (1 + fabs(want))) {
                    if (bad < 10) printf("softmax[%d] = %f, want %f\n", idx, hs[idx], want);
                    ++bad;
                }
            }
        }

    cudnnDestroyPoolingDescriptor(pool);
    cudnnDestroyActivationDescriptor(ad);
    cudnnDestroyConvolutionDescriptor(cd);
    cudnnDestroyFilterDescriptor(wd);
    cudnnDestroyTensorDescriptor(pd);
    cudnnDestroyTensorDescriptor(bd);
    cudnnDestroyTensorDescriptor(yd);
    cudnnDestroyTensorDescriptor(xd);
    CHECK_DNN(cudnnDestroy(h));
    CHECK_CUDA(cudaStreamDestroy(st));
    cudaFree(ws);
    cudaFree(x);
    cudaFree(w);
    cudaFree(b);
    cudaFree(y);
    cudaFree(p);
    cudaFree(sm);
    return report("api_cudnn", bad);
}
