// Launches written with spaces inside the chevrons, `k << < g, b >> > (..)`,
// as old nvcc accepted (Rodinia's particlefilter), next to code whose `> >`
// and `<< <` must stay as they are: nested templates, a string, a comment,
// `operator<< <>`. The kernels come from a header included with quotes;
// __FILE__ still names this file. Prints PASS.
#include <cstdio>
#include <cstring>
#include "spaced_launch.cuh"

template <typename T>
struct Tagged;
template <typename T>
int operator<<(int x, const Tagged<T> &);
template <typename T>
struct Tagged {
    T v;
    friend int operator<< <>(int x, const Tagged<T> &t);
};
template <typename T>
int operator<<(int x, const Tagged<T> &t) {
    return x + (int)t.v;
}

int main() {
    const int n = 64;
    float h[n];
    for (int i = 0; i < n; i++) h[i] = (float)i;
    float *d;
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    scale << < n / 32, 32 >> > (d, 2.0f, n);
    add<3><< <
        n / 16, 16 >> >(d, n);
    // scale << < 1, 1 >> > (d, 100.0f, n); is a comment
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    Box<Box<int> > nested = {{7}};
    const char *text = "k << < g, b >> > (x)";
    Tagged<int> t = {5};
    int shifted = 1 << t;
    for (int i = 0; i < n; i++) {
        if (h[i] != 2.0f * i + 3.0f) {
            printf("FAIL at %d: %f\n", i, h[i]);
            return 1;
        }
    }
    if (nested.v.v != 7 || strlen(text) != 20 || shifted != 6 || !strstr(__FILE__, "spaced_launch.cu")) {
        printf("FAIL: %d %zu %d %s\n", nested.v.v, strlen(text), shifted, __FILE__);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
