// tex1Dfetch in loops, through texture objects passed as kernel parameters
// (resolved once per kernel run) and through a handle read from device
// memory (the general path): int4 and byte texels, coordinates past both
// ends (read as zero), and a texture object created after the kernel's
// first launch; and one channel of an int4 texel chosen at run time
// (`c == 0 ? l.x : ...`), through a parameter and a loaded handle. Prints
// PASS tex_fetch_loop.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "../cuda/check.h"

#define N 64
#define STEPS 40

// Each thread follows `next` links STEPS times from its own node, summing
// the byte of every node it visits; coordinates run from -2 to N + 1.
__global__ void walk(cudaTextureObject_t links, cudaTextureObject_t bytes,
                     const cudaTextureObject_t *indirect, int *out) {
    int t = threadIdx.x;
    int node = t, sum = 0, edge = 0, lane = 0;
    for (int s = 0; s < STEPS; s++) {
        int4 l = tex1Dfetch<int4>(links, node);
        sum += tex1Dfetch<unsigned char>(bytes, node) + l.y;
        edge += tex1Dfetch<unsigned char>(indirect[0], t - 2 + s % 4) + tex1Dfetch<int4>(links, t + s % 3 - 1).y;
        int c = (s + t) % 5;
        int4 m = tex1Dfetch<int4>(indirect[1], t + s % 3 - 1);
        lane += (c == 0 ? l.x : (c == 1 ? l.y : (c == 2 ? l.z : l.w))) +
                (c == 0 ? m.x : (c == 1 ? m.y : (c == 2 ? m.z : m.w)));
        node = l.x;
    }
    out[3 * t] = sum;
    out[3 * t + 1] = edge;
    out[3 * t + 2] = lane;
}

static cudaTextureObject_t make(void *p, size_t bytes, cudaChannelFormatDesc desc) {
    cudaResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeLinear;
    res.res.linear.devPtr = p;
    res.res.linear.desc = desc;
    res.res.linear.sizeInBytes = bytes;
    cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t = 0;
    CHECK(cudaCreateTextureObject(&t, &res, &td, NULL));
    return t;
}

int main() {
    int hlinks[4 * N];
    unsigned char hbytes[N];
    for (int i = 0; i < N; i++) {
        hlinks[4 * i] = (i * 7 + 3) % (N + 2) - 1;  // may leave the table: -1, N
        hlinks[4 * i + 1] = i * 3;
        hlinks[4 * i + 2] = 1000 + i;
        hlinks[4 * i + 3] = 2000 + i;
        hbytes[i] = (unsigned char)(i * 37 + 11);
    }
    int *dlinks, *dout;
    unsigned char *dbytes;
    cudaTextureObject_t *dind;
    alloc_copy(&dlinks, hlinks, sizeof hlinks);
    alloc_copy(&dbytes, hbytes, sizeof hbytes);
    CHECK(cudaMalloc(&dout, 3 * N * sizeof(int)));
    CHECK(cudaMalloc(&dind, 2 * sizeof(cudaTextureObject_t)));
    cudaTextureObject_t links = make(dlinks, sizeof hlinks, cudaCreateChannelDesc<int4>());
    cudaTextureObject_t bytes = make(dbytes, sizeof hbytes, cudaCreateChannelDesc<unsigned char>());
    int failures = 0;
    for (int round = 0; round < 2; round++) {
        // The second round reads the bytes through a new texture object.
        if (round == 1) {
            CHECK(cudaDestroyTextureObject(bytes));
            for (int i = 0; i < N; i++) hbytes[i] = (unsigned char)(255 - i);
            CHECK(cudaMemcpy(dbytes, hbytes, sizeof hbytes, cudaMemcpyHostToDevice));
            bytes = make(dbytes, sizeof hbytes, cudaCreateChannelDesc<unsigned char>());
        }
        cudaTextureObject_t handles[2] = {bytes, links};
        CHECK(cudaMemcpy(dind, handles, sizeof handles, cudaMemcpyHostToDevice));
        walk<<<1, N>>>(links, bytes, dind, dout);
        CHECK(cudaGetLastError());
        int hout[3 * N];
        CHECK(cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost));
        for (int t = 0; t < N; t++) {
            // Past either end a fetch reads zeros: link 0, byte 0.
            int node = t, sum = 0, edge = 0, lane = 0;
            for (int s = 0; s < STEPS; s++) {
                bool in = node >= 0 && node < N;
                int c4 = (s + t) % 5 < 3 ? (s + t) % 5 : 3;
                int ml = t + s % 3 - 1;
                lane += (in ? hlinks[4 * node + c4] : 0) + (ml >= 0 && ml < N ? hlinks[4 * ml + c4] : 0);
                int next = in ? hlinks[4 * node] : 0;
                sum += (in ? hbytes[node] : 0) + (in ? hlinks[4 * node + 1] : 0);
                int c = t - 2 + s % 4;
                int l = t + s % 3 - 1;
                edge += (c >= 0 && c < N ? hbytes[c] : 0) + (l >= 0 && l < N ? hlinks[4 * l + 1] : 0);
                node = next;
            }
            if (hout[3 * t] != sum || hout[3 * t + 1] != edge || hout[3 * t + 2] != lane) {
                if (failures++ < 5)
                    printf("round %d thread %d: got %d %d %d, want %d %d %d\n", round, t,
                           hout[3 * t], hout[3 * t + 1], hout[3 * t + 2], sum, edge, lane);
            }
        }
    }
    return report("tex_fetch_loop", failures);
}
