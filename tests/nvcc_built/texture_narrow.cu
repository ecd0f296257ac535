// tex1Dfetch of 8- and 16-bit integer textures over linear memory, as
// nvcc compiles it: PTX's `tex` returns 32-bit elements, so each channel
// is sign- or zero-extended as the channel format says. Fetches in a loop
// (the JIT's per-launch texture views), in and out of range (zeros), of
// one- and four-channel texels.
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>

#define N 300

__global__ void narrow(cudaTextureObject_t u8, cudaTextureObject_t s8, cudaTextureObject_t u16,
                       cudaTextureObject_t s16, cudaTextureObject_t c4, cudaTextureObject_t us4,
                       unsigned *out, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    unsigned acc = 0;
    // i runs past the end: fetches outside [0, N) read zeros.
    for (int i = t; i < t + 4; i++) {
        acc = acc * 3 + tex1Dfetch<unsigned char>(u8, i);
        acc = acc * 3 + tex1Dfetch<signed char>(s8, i);
        acc = acc * 3 + tex1Dfetch<unsigned short>(u16, i);
        acc = acc * 3 + tex1Dfetch<short>(s16, i);
        char4 c = tex1Dfetch<char4>(c4, i);
        acc = acc * 3 + c.x + 5 * c.y + 7 * c.z + 11 * c.w;
        ushort4 u = tex1Dfetch<ushort4>(us4, i);
        acc = acc * 3 + u.x + 5 * u.y + 7 * u.z + 11 * u.w;
    }
    out[t] = acc;
}

template <typename T>
static cudaTextureObject_t make(const T *host, size_t count, cudaChannelFormatDesc desc, T **dev) {
    cudaMalloc(dev, count * sizeof(T));
    cudaMemcpy(*dev, host, count * sizeof(T), cudaMemcpyHostToDevice);
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeLinear;
    res.res.linear.devPtr = *dev;
    res.res.linear.desc = desc;
    res.res.linear.sizeInBytes = count * sizeof(T);
    cudaTextureDesc td = {};
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t = 0;
    if (cudaCreateTextureObject(&t, &res, &td, NULL) != cudaSuccess) {
        printf("FAIL cudaCreateTextureObject\n");
    }
    return t;
}

template <typename T> static int at(const T *v, int i) { return i < N ? (int)v[i] : 0; }

int main() {
    static unsigned char u8[N];
    static signed char s8[N];
    static unsigned short u16[N];
    static short s16[N];
    static char4 c4[N];
    static ushort4 us4[N];
    for (int i = 0; i < N; i++) {
        u8[i] = (unsigned char)(i * 37 + 200);
        s8[i] = (signed char)(i * 53 - 120);
        u16[i] = (unsigned short)(i * 2311 + 60000);
        s16[i] = (short)(i * 1999 - 30000);
        c4[i] = make_char4((char)(i * 7 - 100), (char)(i * 11), (char)(-i), (char)(i * 13 + 1));
        us4[i] = make_ushort4((unsigned short)(i * 401), (unsigned short)(65535 - i),
                              (unsigned short)(i * 3 + 40000), (unsigned short)(i * i));
    }
    unsigned char *du8;
    signed char *ds8;
    unsigned short *du16;
    short *ds16;
    char4 *dc4;
    ushort4 *dus4;
    cudaTextureObject_t tu8 = make(u8, N, cudaCreateChannelDesc<unsigned char>(), &du8);
    cudaTextureObject_t ts8 = make(s8, N, cudaCreateChannelDesc<signed char>(), &ds8);
    cudaTextureObject_t tu16 = make(u16, N, cudaCreateChannelDesc<unsigned short>(), &du16);
    cudaTextureObject_t ts16 = make(s16, N, cudaCreateChannelDesc<short>(), &ds16);
    cudaTextureObject_t tc4 = make(c4, N, cudaCreateChannelDesc<char4>(), &dc4);
    cudaTextureObject_t tus4 = make(us4, N, cudaCreateChannelDesc<ushort4>(), &dus4);
    unsigned *dout;
    cudaMalloc(&dout, N * sizeof(unsigned));
    narrow<<<(N + 63) / 64, 64>>>(tu8, ts8, tu16, ts16, tc4, tus4, dout, N);
    static unsigned out[N];
    cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int t = 0; t < N; t++) {
        unsigned acc = 0;
        for (int i = t; i < t + 4; i++) {
            acc = acc * 3 + at(u8, i);
            acc = acc * 3 + at(s8, i);
            acc = acc * 3 + at(u16, i);
            acc = acc * 3 + at(s16, i);
            if (i < N)
                acc = acc * 3 + c4[i].x + 5 * c4[i].y + 7 * c4[i].z + 11 * c4[i].w;
            else
                acc = acc * 3;
            if (i < N)
                acc = acc * 3 + us4[i].x + 5 * us4[i].y + 7 * us4[i].z + 11 * us4[i].w;
            else
                acc = acc * 3;
        }
        if (acc != out[t] && bad++ < 5) printf("t=%d: got %u, want %u\n", t, out[t], acc);
    }
    if (bad) {
        printf("FAIL texture_narrow: %d mismatches\n", bad);
        return 1;
    }
    printf("PASS texture_narrow\n");
    return 0;
}
