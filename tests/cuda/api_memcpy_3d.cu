// corpus: runtime-api
// 3-D pitched memory: cudaMalloc3D (pitch and sizes reported back),
// cudaMemcpy3D host->device, device->device between sub-boxes (srcPos and
// dstPos in bytes for x), device->host, a 3-D launch indexing by pitch and
// slice, cudaMemcpy3DAsync on a stream, and a 3-D array round trip.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "expect.h"

const int NX = 13, NY = 7, NZ = 5;

// v(x, y, z) += x + 16 * y + 256 * z, for the element at byte
// z * pitch * ysize + y * pitch + x * 4.
__global__ void add_coords(cudaPitchedPtr p, int nx, int ny, int nz) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x >= nx || y >= ny || z >= nz) return;
    char *slice = (char *)p.ptr + (size_t)z * p.pitch * p.ysize;
    int *row = (int *)(slice + (size_t)y * p.pitch);
    row[x] += x + 16 * y + 256 * z;
}

static int value(int x, int y, int z) { return 1000000 + x * 7 + y * 131 + z * 4099; }

int main() {
    static int host[NZ][NY][NX], back[NZ][NY][NX];
    for (int z = 0; z < NZ; ++z)
        for (int y = 0; y < NY; ++y)
            for (int x = 0; x < NX; ++x) host[z][y][x] = value(x, y, z);

    cudaExtent ext = make_cudaExtent(NX * sizeof(int), NY, NZ);
    cudaPitchedPtr a, b;
    CHECK(cudaMalloc3D(&a, ext));
    CHECK(cudaMalloc3D(&b, ext));
    EXPECT(a.pitch >= NX * sizeof(int));
    EXPECT(a.xsize == NX * sizeof(int) && a.ysize == NY);

    // Host to device, the whole volume.
    cudaMemcpy3DParms in = {};
    in.srcPtr = make_cudaPitchedPtr(host, NX * sizeof(int), NX, NY);
    in.dstPtr = a;
    in.extent = ext;
    in.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&in));

    // A 3-D grid of 3-D blocks over the pitched volume.
    dim3 block(8, 4, 2), grid((NX + 7) / 8, (NY + 3) / 4, (NZ + 1) / 2);
    add_coords<<<grid, block>>>(a, NX, NY, NZ);
    CHECK(cudaGetLastError());

    cudaMemcpy3DParms out = {};
    out.srcPtr = a;
    out.dstPtr = make_cudaPitchedPtr(back, NX * sizeof(int), NX, NY);
    out.extent = ext;
    out.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&out));
    for (int z = 0; z < NZ; ++z)
        for (int y = 0; y < NY; ++y)
            for (int x = 0; x < NX; ++x)
                if (back[z][y][x] != value(x, y, z) + x + 16 * y + 256 * z) {
                    if (bad < 5) printf("kernel (%d,%d,%d): %d\n", x, y, z, back[z][y][x]);
                    ++bad;
                }

    // Device to device: a 4x3x2 box from (2, 1, 1) of `a` to (6, 3, 2) of `b`,
    // which was cleared first.
    CHECK(cudaMemset(b.ptr, 0, b.pitch * NY * NZ));
    cudaMemcpy3DParms box = {};
    box.srcPtr = a;
    box.srcPos = make_cudaPos(2 * sizeof(int), 1, 1);
    box.dstPtr = b;
    box.dstPos = make_cudaPos(6 * sizeof(int), 3, 2);
    box.extent = make_cudaExtent(4 * sizeof(int), 3, 2);
    box.kind = cudaMemcpyDeviceToDevice;
    CHECK(cudaMemcpy3D(&box));
    out.srcPtr = b;
    CHECK(cudaMemcpy3D(&out));
    for (int z = 0; z < NZ; ++z)
        for (int y = 0; y < NY; ++y)
            for (int x = 0; x < NX; ++x) {
                bool inside = x >= 6 && x < 10 && y >= 3 && y < 6 && z >= 2 && z < 4;
                int sx = x - 4, sy = y - 2, sz = z - 1;
                int want = inside ? value(sx, sy, sz) + sx + 16 * sy + 256 * sz : 0;
                if (back[z][y][x] != want) {
                    if (bad < 5) printf("box (%d,%d,%d): %d want %d\n", x, y, z, back[z][y][x], want);
                    ++bad;
                }
            }

    // Asynchronous: in, kernel, out on one stream, into pinned memory.
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    int *pinned;
    CHECK(cudaMallocHost(&pinned, sizeof(host)));
    memcpy(pinned, host, sizeof(host));
    cudaMemcpy3DParms ain = in, aout = out;
    ain.srcPtr = make_cudaPitchedPtr(pinned, NX * sizeof(int), NX, NY);
    ain.dstPtr = b;
    aout.srcPtr = b;
    aout.dstPtr = make_cudaPitchedPtr(pinned, NX * sizeof(int), NX, NY);
    CHECK(cudaMemcpy3DAsync(&ain, s));
    add_coords<<<grid, block, 0, s>>>(b, NX, NY, NZ);
    add_coords<<<grid, block, 0, s>>>(b, NX, NY, NZ);
    CHECK(cudaMemcpy3DAsync(&aout, s));
    CHECK(cudaStreamSynchronize(s));
    for (int z = 0; z < NZ; ++z)
        for (int y = 0; y < NY; ++y)
            for (int x = 0; x < NX; ++x) {
                int want = value(x, y, z) + 2 * (x + 16 * y + 256 * z);
                if (pinned[(z * NY + y) * NX + x] != want) {
                    if (bad < 5) printf("async (%d,%d,%d)\n", x, y, z);
                    ++bad;
                }
            }

    // Through a 3-D CUDA array and back (the array side counts x in elements).
    cudaArray_t arr;
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<int>();
    CHECK(cudaMalloc3DArray(&arr, &desc, make_cudaExtent(NX, NY, NZ)));
    cudaMemcpy3DParms to_arr = {};
    to_arr.srcPtr = make_cudaPitchedPtr(host, NX * sizeof(int), NX, NY);
    to_arr.dstArray = arr;
    to_arr.extent = make_cudaExtent(NX, NY, NZ);
    to_arr.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&to_arr));
    memset(back, 0, sizeof(back));
    cudaMemcpy3DParms from_arr = {};
    from_arr.srcArray = arr;
    from_arr.dstPtr = make_cudaPitchedPtr(back, NX * sizeof(int), NX, NY);
    from_arr.extent = make_cudaExtent(NX, NY, NZ);
    from_arr.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&from_arr));
    EXPECT(memcmp(back, host, sizeof(host)) == 0);

    // Both a pointer and an array on one side is an invalid value.
    cudaMemcpy3DParms both = from_arr;
    both.srcPtr = a;
    EXPECT(cudaMemcpy3D(&both) == cudaErrorInvalidValue);
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue);

    CHECK(cudaFreeArray(arr));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFreeHost(pinned));
    CHECK(cudaFree(a.ptr));
    CHECK(cudaFree(b.ptr));
    return report("api_memcpy_3d", bad);
}
