// `typedef struct tag { ... } Name;` with `Name` used in device code, as
// Rodinia's nn declares `LatLong`. Prints PASS.
#include <cstdio>

typedef struct latLong {
    float lat;
    float lng;
} LatLong;

__global__ void dist(LatLong *p, float *d, int n, float lat, float lng) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    LatLong *q = p + i;
    if (i < n) d[i] = (lat - q->lat) * (lat - q->lat) + (lng - q->lng) * (lng - q->lng);
}

int main() {
    const int n = 3;
    LatLong h[n] = {{1, 2}, {3, 4}, {-1, 0.5f}};
    LatLong *dp;
    float *dd, o[n];
    cudaMalloc(&dp, sizeof h);
    cudaMalloc(&dd, sizeof o);
    cudaMemcpy(dp, h, sizeof h, cudaMemcpyHostToDevice);
    dist<<<1, 32>>>(dp, dd, n, 1.0f, 1.0f);
    cudaMemcpy(o, dd, sizeof o, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) {
        float w = (1 - h[i].lat) * (1 - h[i].lat) + (1 - h[i].lng) * (1 - h[i].lng);
        if (o[i] != w) {
            printf("record %d: got %g, want %g\n", i, o[i], w);
            return 1;
        }
    }
    printf("PASS typedef_struct_tag\n");
    return 0;
}
