// OpenMP in the host half of a .cu file (`-Xcompiler -fopenmp`, and <omp.h>
// included as Rodinia's kmeans does): a parallel reduction over a kernel's
// results and a parallel region counting its threads. Prints PASS.
#include <cstdio>
#include <omp.h>

__global__ void sq(int *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = i * i;
}

int main() {
    const int n = 1000;
    int *d;
    cudaMalloc(&d, n * sizeof(int));
    sq<<<(n + 127) / 128, 128>>>(d, n);
    int h[n];
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    long s = 0;
    int threads = 0;
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < n; i++) s += h[i];
#pragma omp parallel
    {
#pragma omp atomic
        threads++;
    }
    long want = 0;
    for (int i = 0; i < n; i++) want += (long)i * i;
    if (s != want || threads != omp_get_max_threads()) {
        printf("FAIL: sum %ld, want %ld; %d threads\n", s, want, threads);
        return 1;
    }
    printf("PASS (%d threads)\n", threads);
    return 0;
}
