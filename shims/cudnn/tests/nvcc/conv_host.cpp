// A host-only cuDNN program as NVIDIA's toolchain builds it: nvcc with
// -cudart shared and -lcudnn, then run on cucc's runtime and cuDNN
// (`cucc run`). Double-precision NHWC convolution with groups on a stream:
// forward (GEMM algorithm with its workspace), backward data and backward
// filter, each checked against plain loops; alpha/beta blending on the
// forward. Prints PASS conv_host.
#include <cmath>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include <cudnn.h>

#define CK(x) do { cudnnStatus_t s_ = (x); if (s_ != CUDNN_STATUS_SUCCESS) { \
    printf("line %d: %s\n", __LINE__, cudnnGetErrorString(s_)); return 1; } } while (0)
#define CC(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("line %d: %s\n", __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

static const int N = 2, C = 4, H = 6, W = 5, K = 6, G = 2, R = 3, S = 3;
static const int CG = C / G, KG = K / G;

// NHWC offsets.
static int xo(int n, int c, int h, int w) { return ((n * H + h) * W + w) * C + c; }
static int yo(int n, int k, int h, int w) { return ((n * H + h) * W + w) * K + k; }
static int wo(int k, int c, int r, int s) { return ((k * R + r) * S + s) * CG + c; }

int main() {
    std::vector<double> x(N * C * H * W), w(K * CG * R * S), y(N * K * H * W), dx(x.size()), dw(w.size());
    for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.37 * i);
    for (size_t i = 0; i < w.size(); ++i) w[i] = std::cos(0.21 * i);
    for (size_t i = 0; i < y.size(); ++i) y[i] = 0.5 - 0.01 * i;
    double *dX, *dW, *dY, *dDX, *dDW;
    CC(cudaMalloc(&dX, x.size() * 8));
    CC(cudaMalloc(&dW, w.size() * 8));
    CC(cudaMalloc(&dY, y.size() * 8));
    CC(cudaMalloc(&dDX, dx.size() * 8));
    CC(cudaMalloc(&dDW, dw.size() * 8));
    CC(cudaMemcpy(dX, x.data(), x.size() * 8, cudaMemcpyHostToDevice));
    CC(cudaMemcpy(dW, w.data(), w.size() * 8, cudaMemcpyHostToDevice));
    CC(cudaMemcpy(dY, y.data(), y.size() * 8, cudaMemcpyHostToDevice));

    cudaStream_t st;
    CC(cudaStreamCreate(&st));
    cudnnHandle_t h;
    CK(cudnnCreate(&h));
    CK(cudnnSetStream(h, st));
    cudnnTensorDescriptor_t xd, yd;
    cudnnFilterDescriptor_t fd;
    cudnnConvolutionDescriptor_t cd;
    CK(cudnnCreateTensorDescriptor(&xd));
    CK(cudnnCreateTensorDescriptor(&yd));
    CK(cudnnCreateFilterDescriptor(&fd));
    CK(cudnnCreateConvolutionDescriptor(&cd));
    CK(cudnnSetTensor4dDescriptor(xd, CUDNN_TENSOR_NHWC, CUDNN_DATA_DOUBLE, N, C, H, W));
    CK(cudnnSetTensor4dDescriptor(yd, CUDNN_TENSOR_NHWC, CUDNN_DATA_DOUBLE, N, K, H, W));
    CK(cudnnSetFilter4dDescriptor(fd, CUDNN_DATA_DOUBLE, CUDNN_TENSOR_NHWC, K, CG, R, S));
    CK(cudnnSetConvolution2dDescriptor(cd, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_DOUBLE));
    CK(cudnnSetConvolutionGroupCount(cd, G));

    size_t ws_size = 0, s2 = 0, s3 = 0;
    CK(cudnnGetConvolutionForwardWorkspaceSize(h, xd, fd, cd, yd, CUDNN_CONVOLUTION_FWD_ALGO_GEMM, &ws_size));
    CK(cudnnGetConvolutionBackwardDataWorkspaceSize(h, fd, yd, cd, xd, CUDNN_CONVOLUTION_BWD_DATA_ALGO_1, &s2));
    CK(cudnnGetConvolutionBackwardFilterWorkspaceSize(h, xd, yd, cd, fd, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_1, &s3));
    if (s2 > ws_size) ws_size = s2;
    if (s3 > ws_size) ws_size = s3;
    void *ws;
    CC(cudaMalloc(&ws, ws_size));
    double alpha = 2.0, beta = 0.5, one = 1.0, zero = 0.0;
    CK(cudnnConvolutionForward(h, &alpha, xd, dX, fd, dW, cd, CUDNN_CONVOLUTION_FWD_ALGO_GEMM, ws, ws_size, &beta, yd, dY));
    // Backward passes take the forward output as the incoming gradient.
    CK(cudnnConvolutionBackwardData(h, &one, fd, dW, yd, dY, cd, CUDNN_CONVOLUTION_BWD_DATA_ALGO_1, ws, ws_size, &zero, xd, dDX));
    CK(cudnnConvolutionBackwardFilter(h, &one, xd, dX, yd, dY, cd, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_1, ws, ws_size, &zero, fd, dDW));
    std::vector<double> gy(y.size()), gdx(dx.size()), gdw(dw.size());
    CC(cudaMemcpyAsync(gy.data(), dY, y.size() * 8, cudaMemcpyDeviceToHost, st));
    CC(cudaMemcpyAsync(gdx.data(), dDX, dx.size() * 8, cudaMemcpyDeviceToHost, st));
    CC(cudaMemcpyAsync(gdw.data(), dDW, dw.size() * 8, cudaMemcpyDeviceToHost, st));
    CC(cudaStreamSynchronize(st));

    std::vector<double> ry(y.size()), rdx(dx.size(), 0.0), rdw(dw.size(), 0.0);
    for (int n = 0; n < N; ++n)
        for (int k = 0; k < K; ++k)
            for (int i = 0; i < H; ++i)
                for (int j = 0; j < W; ++j) {
                    double s = 0;
                    int g = k / KG;
                    for (int c = 0; c < CG; ++c)
                        for (int r = 0; r < R; ++r)
                            for (int q = 0; q < S; ++q) {
                                int ii = i + r - 1, jj = j + q - 1;
                                if (ii >= 0 && ii < H && jj >= 0 && jj < W) s += x[xo(n, g * CG + c, ii, jj)] * w[wo(k, c, r, q)];
                            }
                    ry[yo(n, k, i, j)] = alpha * s + beta * y[yo(n, k, i, j)];
                }
    for (int n = 0; n < N; ++n)
        for (int k = 0; k < K; ++k)
            for (int i = 0; i < H; ++i)
                for (int j = 0; j < W; ++j) {
                    int g = k / KG;
                    double gyv = ry[yo(n, k, i, j)];
                    for (int c = 0; c < CG; ++c)
                        for (int r = 0; r < R; ++r)
                            for (int q = 0; q < S; ++q) {
                                int ii = i + r - 1, jj = j + q - 1;
                                if (ii < 0 || ii >= H || jj < 0 || jj >= W) continue;
                                rdx[xo(n, g * CG + c, ii, jj)] += gyv * w[wo(k, c, r, q)];
                                rdw[wo(k, c, r, q)] += gyv * x[xo(n, g * CG + c, ii, jj)];
                            }
                }
    int bad = 0;
    for (size_t i = 0; i < ry.size(); ++i) bad += std::fabs(gy[i] - ry[i]) > 1e-9 * (1 + std::fabs(ry[i]));
    for (size_t i = 0; i < rdx.size(); ++i) bad += std::fabs(gdx[i] - rdx[i]) > 1e-9 * (1 + std::fabs(rdx[i]));
    for (size_t i = 0; i < rdw.size(); ++i) bad += std::fabs(gdw[i] - rdw[i]) > 1e-9 * (1 + std::fabs(rdw[i]));
    CK(cudnnDestroy(h));
    if (bad) {
        printf("FAIL conv_host: %d mismatches\n", bad);
        return 1;
    }
    printf("PASS conv_host (cuDNN %zu)\n", cudnnGetVersion());
    return 0;
}
