// Structs, classes and unions with member functions, constructors and
// operator overloads; references; an aggregate passed by value to a kernel.
#include <cstdio>
#include <cstdlib>

#include "check.h"

struct Vec3 {
    float x, y, z;
    __host__ __device__ Vec3() : x(0), y(0), z(0) {}
    __host__ __device__ Vec3(float a, float b, float c) : x(a), y(b), z(c) {}
    __host__ __device__ Vec3 operator+(const Vec3 &o) const { return Vec3(x + o.x, y + o.y, z + o.z); }
    __host__ __device__ Vec3 operator*(float s) const { return Vec3(x * s, y * s, z * s); }
    __host__ __device__ Vec3 &operator+=(const Vec3 &o) {
        x += o.x;
        y += o.y;
        z += o.z;
        return *this;
    }
    __host__ __device__ bool operator==(const Vec3 &o) const { return x == o.x && y == o.y && z == o.z; }
    __host__ __device__ float dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
};

struct Particle {
    float x, y, z;
    float mass;
};

struct Params {
    int n;
    float scale;
};

class Accumulator {
  public:
    __host__ __device__ explicit Accumulator(int start) : total_(start), count_(0) {}
    __host__ __device__ void add(int v) {
        total_ += v;
        ++count_;
    }
    __host__ __device__ int total() const { return total_; }
    __host__ __device__ int count() const { return count_; }

  private:
    int total_;
    int count_;
};

union Bits {
    float f;
    unsigned int u;
};

__host__ __device__ void order(int &a, int &b) {
    if (a > b) {
        int t = a;
        a = b;
        b = t;
    }
}

__global__ void physics(const Particle *in, Particle *out, float *energy, Params p) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= p.n) return;
    Particle q = in[i];
    Vec3 pos(q.x, q.y, q.z);
    Vec3 vel = Vec3(1.0f, -2.0f, 0.5f) * p.scale;
    Vec3 next = pos + vel;
    next += Vec3(0.25f, 0.25f, 0.25f);
    Particle r;
    r.x = next.x;
    r.y = next.y;
    r.z = next.z;
    r.mass = (next == pos) ? 0.0f : q.mass;
    out[i] = r;
    energy[i] = 0.5f * q.mass * vel.dot(vel);
}

__global__ void misc(const int *in, int *out, unsigned *bits, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Accumulator acc(in[i]);
    for (int k = 0; k < 4; ++k) acc.add(k * in[i]);
    int a = in[i], b = 50 - in[i];
    order(a, b);
    int &ref = out[3 * i];
    ref = acc.total();
    out[3 * i + 1] = acc.count() * 1000 + a;
    out[3 * i + 2] = b;
    Bits u;
    u.f = (float)in[i] * 0.5f;
    bits[i] = u.u;
}

int main() {
    const int n = 64;
    Particle hp[n], hq[n];
    float he[n];
    for (int i = 0; i < n; ++i) {
        hp[i].x = i * 0.5f;
        hp[i].y = 10.0f - i;
        hp[i].z = (i % 5) * 0.25f;
        hp[i].mass = 1.0f + (i % 3);
    }
    Particle *dp, *dq;
    float *de;
    alloc_copy(&dp, hp, sizeof(hp));
    CHECK(cudaMalloc(&dq, sizeof(hq)));
    CHECK(cudaMalloc(&de, sizeof(he)));
    Params prm;
    prm.n = n;
    prm.scale = 2.0f;
    physics<<<2, 32>>>(dp, dq, de, prm);
    copy_back(hq, dq, sizeof(hq));
    CHECK(cudaMemcpy(he, de, sizeof(he), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        Vec3 vel = Vec3(1.0f, -2.0f, 0.5f) * prm.scale;
        Vec3 next = Vec3(hp[i].x, hp[i].y, hp[i].z) + vel + Vec3(0.25f, 0.25f, 0.25f);
        if (hq[i].x != next.x || hq[i].y != next.y || hq[i].z != next.z || hq[i].mass != hp[i].mass ||
            he[i] != 0.5f * hp[i].mass * vel.dot(vel)) {
            if (bad < 5) printf("particle %d differs\n", i);
            ++bad;
        }
    }
    int hin[n], hout[3 * n];
    unsigned hbits[n];
    for (int i = 0; i < n; ++i) hin[i] = (i * 13) % 71 - 10;
    int *din, *dout;
    unsigned *dbits;
    alloc_copy(&din, hin, sizeof(hin));
    CHECK(cudaMalloc(&dout, sizeof(hout)));
    CHECK(cudaMalloc(&dbits, sizeof(hbits)));
    misc<<<1, n>>>(din, dout, dbits, n);
    CHECK(cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hbits, dbits, sizeof(hbits), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
        int a = hin[i], b = 50 - hin[i];
        order(a, b);
        Bits u;
        u.f = (float)hin[i] * 0.5f;
        if (hout[3 * i] != hin[i] * 7 || hout[3 * i + 1] != 4000 + a || hout[3 * i + 2] != b || hbits[i] != u.u) {
            if (bad < 5) printf("misc %d differs\n", i);
            ++bad;
        }
    }
    cudaFree(dp);
    cudaFree(dq);
    cudaFree(de);
    cudaFree(din);
    cudaFree(dout);
    cudaFree(dbits);
    return report("structs_classes", bad);
}
