// CUDA vector types (char/uchar/short/int/uint/longlong/float/double with
// 2, 3 and 4 components) built with make_* and read component-wise.
#include <cstdio>
#include <cstdlib>

#include "check.h"

__global__ void vec_kernel(const float4 *in4, const int2 *in2, const uchar4 *px, float4 *out4, int4 *outi,
                           double2 *outd, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 v = in4[i];
    float2 lo = make_float2(v.x, v.y);
    float3 hi = make_float3(v.z, v.w, lo.x + lo.y);
    out4[i] = make_float4(hi.x + lo.x, hi.y - lo.y, hi.z * 2.0f, v.w);
    int2 a = in2[i];
    uchar4 p = px[i];
    uint3 u = make_uint3(p.x, p.y, p.z);
    short2 s = make_short2((short)(a.x - a.y), (short)p.w);
    longlong2 l = make_longlong2((long long)a.x << 32, a.y);
    char2 c = make_char2((char)(a.x & 0x3f), (char)-3);
    outi[i] = make_int4(a.x + a.y, (int)(u.x + u.y + u.z), s.x * s.y, (int)(l.x >> 32) + (int)l.y + c.x + c.y);
    double2 d = make_double2((double)v.x, (double)a.y);
    outd[i] = make_double2(d.x * d.y, d.x + d.y);
}

int main() {
    const int n = 48;
    float4 h4[n], r4[n];
    int2 h2[n];
    uchar4 hp[n];
    int4 ri[n];
    double2 rd[n];
    for (int i = 0; i < n; ++i) {
        h4[i] = make_float4(i * 0.5f, i - 7.0f, 3.0f - i * 0.25f, (float)(i % 5));
        h2[i] = make_int2(i * 3 - 20, 17 - i);
        hp[i] = make_uchar4((unsigned char)(i * 5), (unsigned char)(255 - i), (unsigned char)(i * i), (unsigned char)(i % 7));
    }
    float4 *d4, *o4;
    int2 *d2;
    uchar4 *dp;
    int4 *oi;
    double2 *od;
    alloc_copy(&d4, h4, sizeof(h4));
    CHECK(cudaMalloc(&o4, sizeof(r4)));
    alloc_copy(&d2, h2, sizeof(h2));
    alloc_copy(&dp, hp, sizeof(hp));
    CHECK(cudaMalloc(&oi, sizeof(ri)));
    CHECK(cudaMalloc(&od, sizeof(rd)));
    vec_kernel<<<2, 32>>>(d4, d2, dp, o4, oi, od, n);
    copy_back(r4, o4, sizeof(r4));
    CHECK(cudaMemcpy(ri, oi, sizeof(ri), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(rd, od, sizeof(rd), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        float4 v = h4[i];
        float4 w4 = make_float4(v.z + v.x, v.w - v.y, (v.x + v.y) * 2.0f, v.w);
        int2 a = h2[i];
        uchar4 p = hp[i];
        int w0 = a.x + a.y;
        int w1 = p.x + p.y + p.z;
        int w2 = (short)(a.x - a.y) * (short)p.w;
        int w3 = a.x + a.y + (a.x & 0x3f) - 3;
        double dx = v.x, dy = a.y;
        if (r4[i].x != w4.x || r4[i].y != w4.y || r4[i].z != w4.z || r4[i].w != w4.w || ri[i].x != w0 ||
            ri[i].y != w1 || ri[i].z != w2 || ri[i].w != w3 || rd[i].x != dx * dy || rd[i].y != dx + dy) {
            if (bad < 5) printf("element %d differs\n", i);
            ++bad;
        }
    }
    cudaFree(d4);
    cudaFree(o4);
    cudaFree(d2);
    cudaFree(dp);
    cudaFree(oi);
    cudaFree(od);
    return report("vector_types", bad);
}
