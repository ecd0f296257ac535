// CSR sparse matrix-vector product y = A x on the Elasticity3D_60 shape:
// a 27-point stencil on a 60^3 grid with 3 unknowns per node (648,000
// rows, 50,757,768 non-zeros), double values, int column indices. The
// matrix is generated here; every kernel's result is checked against a
// serial host reference. Prints the effective bandwidth (bytes of the
// matrix, x and y moved once per product, over the median time) of:
//   - an OpenMP row loop on the host (built with -Xcompiler -fopenmp),
//   - a thread-per-row kernel,
//   - a warp-per-row kernel (32 lanes stride over a row, __shfl_down_sync
//     reduction, guard on the warp's row, lane 0 writes).
// Usage: spmv [grid_edge [reps]]   (defaults 60 and 10)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#ifdef _OPENMP
#include <omp.h>
#endif

#define CHECK(call)                                                                 \
    do {                                                                            \
        cudaError_t err_ = (call);                                                  \
        if (err_ != cudaSuccess) {                                                  \
            printf("CUDA error %s at line %d\n", cudaGetErrorString(err_), __LINE__); \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

__global__ void spmv_thread(int n, const int *__restrict__ rowptr, const int *__restrict__ col,
                            const double *__restrict__ val, const double *__restrict__ x,
                            double *__restrict__ y) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n) {
        double s = 0.0;
        for (int j = rowptr[row]; j < rowptr[row + 1]; ++j) s += val[j] * x[col[j]];
        y[row] = s;
    }
}

__global__ void spmv_warp(int n, const int *__restrict__ rowptr, const int *__restrict__ col,
                          const double *__restrict__ val, const double *__restrict__ x,
                          double *__restrict__ y) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int row = tid / 32;
    int lane = threadIdx.x % 32;
    if (row < n) {
        double s = 0.0;
        for (int j = rowptr[row] + lane; j < rowptr[row + 1]; j += 32) s += val[j] * x[col[j]];
        for (int off = 16; off > 0; off /= 2) s += __shfl_down_sync(0xffffffffu, s, off);
        if (lane == 0) y[row] = s;
    }
}

static double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

static void spmv_host(int n, const int *rowptr, const int *col, const double *val, const double *x,
                      double *y) {
#pragma omp parallel for schedule(static)
    for (int row = 0; row < n; ++row) {
        double s = 0.0;
        for (int j = rowptr[row]; j < rowptr[row + 1]; ++j) s += val[j] * x[col[j]];
        y[row] = s;
    }
}

static double median(std::vector<double> t) {
    std::sort(t.begin(), t.end());
    size_t m = t.size() / 2;
    return t.size() % 2 ? t[m] : 0.5 * (t[m - 1] + t[m]);
}

// Largest relative difference from the reference (scaled by the row's
// absolute sum, so cancellation does not inflate it).
static double check(const std::vector<double> &got, const std::vector<double> &want,
                    const std::vector<double> &scale) {
    double worst = 0.0;
    for (size_t i = 0; i < got.size(); ++i) {
        double d = std::fabs(got[i] - want[i]) / (scale[i] > 0 ? scale[i] : 1.0);
        if (!(d <= worst)) worst = d;  // NaN counts as worst
    }
    return worst;
}

int main(int argc, char **argv) {
    int edge = argc > 1 ? atoi(argv[1]) : 60;
    int reps = argc > 2 ? atoi(argv[2]) : 10;
    if (edge < 2 || edge > 200 || reps < 1) {
        printf("usage: spmv [grid_edge 2..200 [reps]]\n");
        return 2;
    }
    const int dof = 3;
    const int nodes = edge * edge * edge;
    const int n = nodes * dof;
    // Build the CSR matrix: rows of node (i,j,k), component c, couple every
    // component of every node within distance 1 in each dimension.
    std::vector<int> rowptr(n + 1);
    rowptr[0] = 0;
    for (int node = 0; node < nodes; ++node) {
        int i = node % edge, j = (node / edge) % edge, k = node / (edge * edge);
        int ci = 1 + (i > 0) + (i < edge - 1), cj = 1 + (j > 0) + (j < edge - 1),
            ck = 1 + (k > 0) + (k < edge - 1);
        int len = ci * cj * ck * dof;
        for (int c = 0; c < dof; ++c) rowptr[node * dof + c + 1] = rowptr[node * dof + c] + len;
    }
    const long long nnz = rowptr[n];
    std::vector<int> col(nnz);
    std::vector<double> val(nnz);
    for (int node = 0; node < nodes; ++node) {
        int i = node % edge, j = (node / edge) % edge, k = node / (edge * edge);
        for (int c = 0; c < dof; ++c) {
            int row = node * dof + c;
            int p = rowptr[row];
            for (int dk = -1; dk <= 1; ++dk)
                for (int dj = -1; dj <= 1; ++dj)
                    for (int di = -1; di <= 1; ++di) {
                        int ii = i + di, jj = j + dj, kk = k + dk;
                        if (ii < 0 || jj < 0 || kk < 0 || ii >= edge || jj >= edge || kk >= edge) continue;
                        int other = (kk * edge + jj) * edge + ii;
                        for (int d = 0; d < dof; ++d) {
                            col[p] = other * dof + d;
                            bool diag = other == node && d == c;
                            // Deterministic values with no pattern gcc could fold.
                            unsigned h = (unsigned)(row * 2654435761u) ^ (unsigned)(p * 40503u);
                            val[p] = diag ? 26.0 + dof : -((h >> 8) % 1000) / 1000.0;
                            ++p;
                        }
                    }
        }
    }
    std::vector<double> x(n), ref(n), scale(n), out(n);
    for (int r = 0; r < n; ++r) x[r] = 1.0 + (r % 7) * 0.25;
    for (int r = 0; r < n; ++r) {
        double s = 0.0, a = 0.0;
        for (int p = rowptr[r]; p < rowptr[r + 1]; ++p) {
            s += val[p] * x[col[p]];
            a += std::fabs(val[p] * x[col[p]]);
        }
        ref[r] = s;
        scale[r] = a;
    }
    // Bytes one product moves at least once: the matrix, x, y.
    const double bytes = (double)nnz * (sizeof(double) + sizeof(int)) + (n + 1.0) * sizeof(int) +
                         2.0 * n * sizeof(double);
    int threads = 1;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    printf("spmv: %d^3 grid, %d dof/node: %d rows, %lld non-zeros, %.1f MB per product, %d reps, %d OpenMP threads\n",
           edge, dof, n, nnz, bytes / 1e6, reps, threads);

    int *drowptr, *dcol;
    double *dval, *dx, *dy;
    CHECK(cudaMalloc(&drowptr, (n + 1) * sizeof(int)));
    CHECK(cudaMalloc(&dcol, nnz * sizeof(int)));
    CHECK(cudaMalloc(&dval, nnz * sizeof(double)));
    CHECK(cudaMalloc(&dx, n * sizeof(double)));
    CHECK(cudaMalloc(&dy, n * sizeof(double)));
    CHECK(cudaMemcpy(drowptr, rowptr.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dcol, col.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dval, val.data(), nnz * sizeof(double), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dx, x.data(), n * sizeof(double), cudaMemcpyHostToDevice));

    const double tol = 1e-12;
    int failed = 0;
    const int block = 256;
    for (int which = 0; which < 3; ++which) {
        const char *name = which == 0 ? "openmp-rows" : which == 1 ? "thread-per-row" : "warp-per-row";
        std::vector<double> times;
        for (int rep = 0; rep <= reps; ++rep) {  // rep 0 warms up (JIT, page faults)
            CHECK(cudaMemset(dy, 0xff, n * sizeof(double)));  // NaNs: unwritten rows fail the check
            CHECK(cudaDeviceSynchronize());
            std::fill(out.begin(), out.end(), NAN);
            double t0 = now();
            if (which == 0) {
                spmv_host(n, rowptr.data(), col.data(), val.data(), x.data(), out.data());
            } else if (which == 1) {
                spmv_thread<<<(n + block - 1) / block, block>>>(n, drowptr, dcol, dval, dx, dy);
                CHECK(cudaDeviceSynchronize());
            } else {
                long long total = 32LL * n;
                spmv_warp<<<(int)((total + block - 1) / block), block>>>(n, drowptr, dcol, dval, dx, dy);
                CHECK(cudaDeviceSynchronize());
            }
            double t1 = now();
            CHECK(cudaGetLastError());
            if (rep > 0) times.push_back(t1 - t0);
        }
        if (which != 0) CHECK(cudaMemcpy(out.data(), dy, n * sizeof(double), cudaMemcpyDeviceToHost));
        double err = check(out, ref, scale);
        double t = median(times);
        bool ok = err <= tol;
        printf("%-16s %8.2f GB/s  %8.3f ms (median)  max rel err %.1e  %s\n", name, bytes / t / 1e9,
               t * 1e3, err, ok ? "ok" : "WRONG");
        if (!ok) failed = 1;
    }
    cudaFree(drowptr);
    cudaFree(dcol);
    cudaFree(dval);
    cudaFree(dx);
    cudaFree(dy);
    if (failed) {
        printf("FAIL spmv\n");
        return 1;
    }
    printf("PASS spmv\n");
    return 0;
}
