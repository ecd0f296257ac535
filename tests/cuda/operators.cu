// Every C operator: arithmetic, bitwise, shifts, comparisons, logical
// operators with short-circuit side effects, all compound assignments,
// pre/post increment and decrement, comma and the conditional operator.
#include <cstdio>
#include <cstdlib>

#include "check.h"

#define NOUT 16

__host__ __device__ void ops(int a, int b, unsigned u, int *o) {
    int k = 0;
    o[k++] = a + b * 3 - (a / b) + (a % b);
    o[k++] = (a & b) | (a ^ ~b);
    o[k++] = ((a & 0xff) << 3) + (a >> 2) + (int)(u >> 5) + (int)(u << 7);
    o[k++] = (a < b) + 2 * (a <= b) + 4 * (a > b) + 8 * (a >= b) + 16 * (a == b) + 32 * (a != b);
    int calls = 0;
    bool x = (a > 0 && ++calls > 0) || (++calls, b > 0);
    bool y = !(a < 0 || ++calls);
    o[k++] = calls * 4 + x * 2 + y;
    int c = a;
    c += 5; c -= b; c *= 3; c /= 2; c %= 1000; c += 1000; c <<= 2; c >>= 1; c &= 0xfff; c |= 0x1000; c ^= 0x55;
    o[k++] = c;
    unsigned v = u;
    v += 7u; v -= 3u; v *= 5u; v /= 3u; v %= 100000u; v <<= 3; v >>= 2; v &= 0xffffu; v |= 1u; v ^= 0xffu;
    o[k++] = (int)v;
    int i = a;
    int pre = ++i;
    int post = i++;
    int pred = --i;
    int postd = i--;
    o[k++] = pre * 1000 + post * 100 + pred * 10 + postd + i;
    int comma = (i = b, i * 2);
    o[k++] = comma;
    o[k++] = a > b ? a - b : (a == b ? 0 : b - a);
    o[k++] = -a + +b;
    o[k++] = !a + !b * 2;
    o[k++] = ~a;
    long long big = (long long)a * 100000 + b;
    o[k++] = (int)(big % 99991);
    unsigned short h = (unsigned short)u;
    h += 65530;
    o[k++] = h;
    int arr[3] = {a, b, a + b};
    int *p = arr;
    int first = *p++;
    int third = *++p;
    o[k++] = first + third + (int)(p - arr);
}

__global__ void all_ops(const int *a, const int *b, const unsigned *u, int *out, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n) ops(a[t], b[t], u[t], out + t * NOUT);
}

int main() {
    const int n = 100;
    int ha[n], hb[n], hout[n * NOUT];
    unsigned hu[n];
    for (int i = 0; i < n; ++i) {
        ha[i] = (i * 37) % 200 - 100;
        hb[i] = (i * 11) % 19 - 9;
        if (hb[i] == 0) hb[i] = 7;
        hu[i] = 0x12345u * (unsigned)i + 977u;
    }
    int *da, *db, *dout;
    unsigned *du;
    alloc_copy(&da, ha, sizeof(ha));
    alloc_copy(&db, hb, sizeof(hb));
    alloc_copy(&du, hu, sizeof(hu));
    CHECK(cudaMalloc(&dout, sizeof(hout)));
    all_ops<<<4, 32>>>(da, db, du, dout, n);
    copy_back(hout, dout, sizeof(hout));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        int want[NOUT];
        ops(ha[i], hb[i], hu[i], want);
        check_row("thread", i, hout + i * NOUT, want, NOUT, bad);
    }
    cudaFree(da);
    cudaFree(db);
    cudaFree(du);
    cudaFree(dout);
    return report("operators", bad);
}
