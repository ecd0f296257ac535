// Device code calling the C99 classification functions unqualified
// (isnan, isinf, isfinite) and abs on float and double, as Rodinia's myocyte
// (`isnan(x) == 1`) and heartwall (`abs(float)`) do. Prints PASS.
#include <cmath>
#include <cstdio>

__global__ void classify(const float *x, const double *y, int *flags, float *ax, double *ay) {
    int i = threadIdx.x;
    flags[i * 6 + 0] = isnan(x[i]) == 1;
    flags[i * 6 + 1] = isinf(x[i]) == 1;
    flags[i * 6 + 2] = isfinite(x[i]);
    flags[i * 6 + 3] = isnan(y[i]);
    flags[i * 6 + 4] = isinf(y[i]);
    flags[i * 6 + 5] = isfinite(y[i]);
    ax[i] = abs(x[i]);
    ay[i] = abs(y[i]);
}

int main() {
    const int n = 5;
    float hx[n] = {NAN, -INFINITY, -1.5f, 2.25f, INFINITY};
    double hy[n] = {-2.0, INFINITY, NAN, -0.0, -3.5};
    float *dx, *dax;
    double *dy, *day;
    int *dflags;
    cudaMalloc(&dx, sizeof hx);
    cudaMalloc(&dy, sizeof hy);
    cudaMalloc(&dax, sizeof hx);
    cudaMalloc(&day, sizeof hy);
    cudaMalloc(&dflags, n * 6 * sizeof(int));
    cudaMemcpy(dx, hx, sizeof hx, cudaMemcpyHostToDevice);
    cudaMemcpy(dy, hy, sizeof hy, cudaMemcpyHostToDevice);
    classify<<<1, n>>>(dx, dy, dflags, dax, day);
    int flags[n * 6];
    float ax[n];
    double ay[n];
    cudaMemcpy(flags, dflags, sizeof flags, cudaMemcpyDeviceToHost);
    cudaMemcpy(ax, dax, sizeof ax, cudaMemcpyDeviceToHost);
    cudaMemcpy(ay, day, sizeof ay, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; i++) {
        int want[6] = {std::isnan(hx[i]), std::isinf(hx[i]), std::isfinite(hx[i]),
                       std::isnan(hy[i]), std::isinf(hy[i]), std::isfinite(hy[i])};
        for (int j = 0; j < 6; j++) {
            if ((flags[i * 6 + j] != 0) != (want[j] != 0)) {
                printf("element %d flag %d: got %d, want %d\n", i, j, flags[i * 6 + j], want[j]);
                bad++;
            }
        }
        float wx = std::fabs(hx[i]);
        double wy = std::fabs(hy[i]);
        if (!(ax[i] == wx || (std::isnan(ax[i]) && std::isnan(wx)))) {
            printf("abs(float) %d: got %g, want %g\n", i, ax[i], wx);
            bad++;
        }
        if (!(ay[i] == wy || (std::isnan(ay[i]) && std::isnan(wy)))) {
            printf("abs(double) %d: got %g, want %g\n", i, ay[i], wy);
            bad++;
        }
    }
    if (bad) return 1;
    printf("PASS math_classify\n");
    return 0;
}
