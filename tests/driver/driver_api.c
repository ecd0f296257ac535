/* A driver-API program: loads kernels at run time from PTX text and from a
 * fat binary (both written by nvcc from kernels.cu), launches them every
 * way the driver API offers, checks the results, and checks that bad input
 * gives the documented error codes. Built with cucc's cuda.h and linked
 * with -lcuda.
 *
 * usage: driver_api KERNELS.ptx KERNELS.fatbin CUBIN_ONLY.fatbin */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define EXPECT(call, code)                                                              \
    do {                                                                                \
        CUresult r_ = (call);                                                           \
        if (r_ != (code)) {                                                             \
            const char *n_ = 0;                                                         \
            cuGetErrorName(r_, &n_);                                                    \
            printf("FAIL line %d: %s gave %d (%s), expected %d\n", __LINE__, #call, (int)r_, \
                   n_ ? n_ : "?", (int)(code));                                         \
            failures++;                                                                 \
        }                                                                               \
    } while (0)
#define OK(call) EXPECT(call, CUDA_SUCCESS)
#define CHECK(cond)                                                   \
    do {                                                              \
        if (!(cond)) {                                                \
            printf("FAIL line %d: %s\n", __LINE__, #cond);            \
            failures++;                                               \
        }                                                             \
    } while (0)

static char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = calloc((size_t)n + 1, 1);
    if (fread(buf, 1, (size_t)n, f) != (size_t)n)
        exit(2);
    fclose(f);
    *size = (size_t)n;
    return buf;
}

enum { N = 1000 };

static void set_flag(void *p)
{
    *(int *)p += 1;
}

/* saxpy through kernelParams, the packed `extra` buffer and cuLaunchKernelEx. */
static void run_saxpy(CUmodule mod, const char *what)
{
    CUfunction f;
    OK(cuModuleGetFunction(&f, mod, "saxpy"));
    float x[N], y[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)i;
        y[i] = 1.0f;
    }
    CUdeviceptr dx, dy;
    OK(cuMemAlloc(&dx, sizeof x));
    OK(cuMemAlloc(&dy, sizeof y));
    OK(cuMemcpyHtoD(dx, x, sizeof x));
    OK(cuMemcpyHtoD(dy, y, sizeof y));
    int n = N;
    float a = 2.0f;
    void *params[] = {&n, &a, &dx, &dy};
    OK(cuLaunchKernel(f, (N + 127) / 128, 1, 1, 128, 1, 1, 0, 0, params, 0));

    /* The same parameters packed: int at 0, float at 4, pointers at 8, 16. */
    struct {
        int n;
        float a;
        CUdeviceptr x, y;
    } packed = {N, 2.0f, dx, dy};
    size_t size = sizeof packed;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
                     CU_LAUNCH_PARAM_END};
    OK(cuLaunchKernel(f, (N + 127) / 128, 1, 1, 128, 1, 1, 0, 0, 0, extra));

    CUlaunchConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.gridDimX = (N + 63) / 64;
    cfg.gridDimY = cfg.gridDimZ = 1;
    cfg.blockDimX = 64;
    cfg.blockDimY = cfg.blockDimZ = 1;
    OK(cuLaunchKernelEx(&cfg, f, params, 0));
    OK(cuCtxSynchronize());
    OK(cuMemcpyDtoH(y, dy, sizeof y));
    int bad = 0;
    for (int i = 0; i < N; i++)
        if (y[i] != 1.0f + 6.0f * (float)i)
            bad++;
    if (bad) {
        printf("FAIL %s: %d wrong saxpy results (y[1] = %g)\n", what, bad, y[1]);
        failures++;
    }

    /* Too many threads per block: an invalid value, not a crash. */
    EXPECT(cuLaunchKernel(f, 1, 1, 1, 2048, 1, 1, 0, 0, params, 0), CUDA_ERROR_INVALID_VALUE);
    /* Neither parameters nor extra, for a kernel with parameters. */
    EXPECT(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0), CUDA_ERROR_INVALID_VALUE);
    /* A buffer too small for the parameters. */
    size_t small = 8;
    void *extra_small[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &small,
                           CU_LAUNCH_PARAM_END};
    EXPECT(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, 0, 0, extra_small), CUDA_ERROR_INVALID_VALUE);
    OK(cuMemFree(dx));
    OK(cuMemFree(dy));
}

/* A __device__ variable, set through cuModuleGetGlobal; a mangled name;
 * streams, events, sets and asynchronous copies. */
static void run_rest(CUmodule mod)
{
    CUfunction add_bias, block_sum, mixed;
    OK(cuModuleGetFunction(&add_bias, mod, "add_bias"));
    OK(cuModuleGetFunction(&block_sum, mod, "_Z9block_sumPKiPi"));
    OK(cuModuleGetFunction(&mixed, mod, "mixed"));
    EXPECT(cuModuleGetFunction(&mixed, mod, "no_such_kernel"), CUDA_ERROR_NOT_FOUND);
    unsigned count = 0;
    OK(cuModuleGetFunctionCount(&count, mod));
    CHECK(count == 4);
    const char *name = 0;
    OK(cuFuncGetName(&name, block_sum));
    CHECK(name && strcmp(name, "_Z9block_sumPKiPi") == 0);
    CUmodule owner = 0;
    OK(cuFuncGetModule(&owner, block_sum));
    CHECK(owner == mod);
    int attr = 0;
    OK(cuFuncGetAttribute(&attr, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, block_sum));
    CHECK(attr == 1024);
    OK(cuFuncGetAttribute(&attr, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, block_sum));
    CHECK(attr >= 1024);

    CUdeviceptr bias;
    size_t bias_size = 0;
    OK(cuModuleGetGlobal(&bias, &bias_size, mod, "bias"));
    CHECK(bias_size == sizeof(float));
    EXPECT(cuModuleGetGlobal(&bias, &bias_size, mod, "no_such_var"), CUDA_ERROR_NOT_FOUND);
    float b = 0.5f;
    OK(cuMemcpyHtoD(bias, &b, sizeof b));

    CUstream s;
    OK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CUevent start, stop;
    OK(cuEventCreate(&start, CU_EVENT_DEFAULT));
    OK(cuEventCreate(&stop, CU_EVENT_DEFAULT));
    float *host;
    OK(cuMemAllocHost((void **)&host, N * sizeof(float)));
    CUdeviceptr dy;
    OK(cuMemAlloc(&dy, N * sizeof(float)));
    /* 0x3f800000 is 1.0f: a 32-bit set whose bytes differ. */
    OK(cuMemsetD32Async(dy, 0x3f800000u, N, s));
    int n = N;
    void *params[] = {&dy, &n};
    OK(cuEventRecord(start, s));
    OK(cuLaunchKernel(add_bias, (N + 255) / 256, 1, 1, 256, 1, 1, 0, s, params, 0));
    OK(cuEventRecord(stop, s));
    OK(cuMemcpyDtoHAsync(host, dy, N * sizeof(float), s));
    int flag = 0;
    OK(cuLaunchHostFunc(s, set_flag, &flag));
    OK(cuStreamSynchronize(s));
    CHECK(flag == 1);
    OK(cuEventSynchronize(stop));
    float ms = -1;
    OK(cuEventElapsedTime(&ms, start, stop));
    CHECK(ms >= 0);
    OK(cuEventQuery(stop));
    OK(cuStreamQuery(s));
    int bad = 0;
    for (int i = 0; i < N; i++)
        if (host[i] != 1.5f)
            bad++;
    if (bad) {
        printf("FAIL add_bias: %d wrong (host[0] = %g)\n", bad, host[0]);
        failures++;
    }

    /* 16-bit set, and a byte set, read back. */
    OK(cuMemsetD16(dy, 0x1234, 4));
    OK(cuMemsetD8(dy + 8, 0x7f, 2));
    unsigned short h[5];
    OK(cuMemcpyDtoH(h, dy, sizeof h));
    CHECK(h[0] == 0x1234 && h[3] == 0x1234 && h[4] == 0x7f7f);
    EXPECT(cuMemsetD32(dy + 2, 1, 1), CUDA_ERROR_INVALID_VALUE); /* misaligned */

    /* Reduction with shared memory and barriers, C++ name. */
    int in[1024], out[4];
    for (int i = 0; i < 1024; i++)
        in[i] = i;
    CUdeviceptr din, dout;
    OK(cuMemAlloc(&din, sizeof in));
    OK(cuMemAlloc(&dout, sizeof out));
    OK(cuMemcpyHtoD(din, in, sizeof in));
    void *rp[] = {&din, &dout};
    OK(cuLaunchKernel(block_sum, 4, 1, 1, 256, 1, 1, 0, CU_STREAM_LEGACY, rp, 0));
    OK(cuMemcpyDtoH(out, dout, sizeof out));
    for (int k = 0; k < 4; k++)
        CHECK(out[k] == 256 * 256 * k + 255 * 256 / 2);

    /* Mixed parameter sizes through the packed buffer: char at 0, double
     * at 8, pointer at 16, short at 24. */
    unsigned char buf[32];
    memset(buf, 0, sizeof buf);
    char c = 7;
    double d = 42.0;
    short sh = -3;
    memcpy(buf, &c, 1);
    memcpy(buf + 8, &d, 8);
    memcpy(buf + 16, &dout, 8);
    memcpy(buf + 24, &sh, 2);
    size_t bsize = 26;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &bsize,
                     CU_LAUNCH_PARAM_END};
    OK(cuLaunchKernel(mixed, 1, 1, 1, 1, 1, 1, 0, 0, 0, extra));
    OK(cuMemcpyDtoH(out, dout, 3 * sizeof(int)));
    CHECK(out[0] == 7 && out[1] == 42 && out[2] == -3);

    /* Pointer attributes and address ranges. */
    unsigned mt = 0;
    OK(cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, din));
    CHECK(mt == CU_MEMORYTYPE_DEVICE);
    OK(cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)(size_t)host));
    CHECK(mt == CU_MEMORYTYPE_HOST);
    int local = 0;
    EXPECT(cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)(size_t)&local),
           CUDA_ERROR_INVALID_VALUE);
    CUdeviceptr base;
    size_t range;
    OK(cuMemGetAddressRange(&base, &range, din + 100));
    CHECK(base == din && range == sizeof in);

    /* A 2D copy: a 4x3 block out of a pitched device allocation. */
    CUdeviceptr pitched;
    size_t pitch = 0;
    OK(cuMemAllocPitch(&pitched, &pitch, 64, 8, 4));
    CHECK(pitch >= 64);
    OK(cuMemsetD8(pitched, 0, pitch * 8));
    int block[3][4];
    for (int r = 0; r < 3; r++)
        for (int c2 = 0; c2 < 4; c2++)
            block[r][c2] = 10 * r + c2;
    CUDA_MEMCPY2D cp;
    memset(&cp, 0, sizeof cp);
    cp.srcMemoryType = CU_MEMORYTYPE_HOST;
    cp.srcHost = block;
    cp.srcPitch = sizeof block[0];
    cp.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    cp.dstDevice = pitched;
    cp.dstPitch = pitch;
    cp.dstXInBytes = 8;
    cp.dstY = 2;
    cp.WidthInBytes = sizeof block[0];
    cp.Height = 3;
    OK(cuMemcpy2D(&cp));
    int row[16];
    OK(cuMemcpyDtoH(row, pitched + 3 * pitch, sizeof row));
    CHECK(row[1] == 0 && row[2] == 10 && row[5] == 13 && row[6] == 0);
    cp.dstMemoryType = 3; /* arrays: not through the driver API */
    EXPECT(cuMemcpy2D(&cp), CUDA_ERROR_NOT_SUPPORTED);
    OK(cuMemFree(pitched));

    /* Occupancy: one block per core at least, the largest block allowed. */
    int min_grid = 0, best = 0;
    OK(cuOccupancyMaxPotentialBlockSize(&min_grid, &best, block_sum, 0, 0, 256));
    CHECK(min_grid >= 1 && best == 256);

    /* Bad handles and pointers. */
    EXPECT(cuMemFree(din + 4), CUDA_ERROR_INVALID_VALUE);
    EXPECT(cuMemcpyHtoD(din + sizeof in - 4, in, 8), CUDA_ERROR_INVALID_VALUE);
    EXPECT(cuLaunchKernel((CUfunction)&local, 1, 1, 1, 1, 1, 1, 0, 0, rp, 0), CUDA_ERROR_INVALID_HANDLE);
    EXPECT(cuStreamSynchronize((CUstream)&local), CUDA_ERROR_INVALID_HANDLE);
    EXPECT(cuEventRecord((CUevent)&local, 0), CUDA_ERROR_INVALID_HANDLE);

    OK(cuMemFree(din));
    OK(cuMemFree(dout));
    OK(cuMemFree(dy));
    OK(cuMemFreeHost(host));
    OK(cuEventDestroy(start));
    OK(cuEventDestroy(stop));
    OK(cuStreamDestroy(s));
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s KERNELS.ptx KERNELS.fatbin CUBIN_ONLY.fatbin\n", argv[0]);
        return 2;
    }
    size_t ptx_size, fat_size, cubin_size;
    char *ptx = read_file(argv[1], &ptx_size);
    char *fat = read_file(argv[2], &fat_size);
    char *cubin_only = read_file(argv[3], &cubin_size);

    int count = -1;
    EXPECT(cuDeviceGetCount(&count), CUDA_ERROR_NOT_INITIALIZED);
    int version = 0;
    OK(cuDriverGetVersion(&version));
    CHECK(version >= 13000);
    EXPECT(cuInit(1), CUDA_ERROR_INVALID_VALUE);
    OK(cuInit(0));
    OK(cuDeviceGetCount(&count));
    CHECK(count == 1);
    CUdevice dev;
    OK(cuDeviceGet(&dev, 0));
    EXPECT(cuDeviceGet(&dev, 1), CUDA_ERROR_INVALID_DEVICE);
    char name[256];
    OK(cuDeviceGetName(name, sizeof name, dev));
    CHECK(strlen(name) > 0);
    int v = 0;
    OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, dev));
    CHECK(v == 1024);
    OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_WARP_SIZE, dev));
    CHECK(v == 32);
    size_t total = 0;
    OK(cuDeviceTotalMem(&total, dev));
    CHECK(total > 0);
    CUuuid uuid;
    OK(cuDeviceGetUuid(&uuid, dev));
    const char *text = 0;
    OK(cuGetErrorString(CUDA_ERROR_INVALID_PTX, &text));
    CHECK(text && *text);
    OK(cuGetErrorName(CUDA_ERROR_NOT_SUPPORTED, &text));
    CHECK(text && strcmp(text, "CUDA_ERROR_NOT_SUPPORTED") == 0);
    EXPECT(cuGetErrorName((CUresult)12345, &text), CUDA_ERROR_INVALID_VALUE);

    /* No context yet. */
    CUdeviceptr p;
    EXPECT(cuMemAlloc(&p, 16), CUDA_ERROR_INVALID_CONTEXT);

    /* Primary context bookkeeping. */
    unsigned flags;
    int active = 1;
    OK(cuDevicePrimaryCtxGetState(dev, &flags, &active));
    CHECK(active == 0);
    CUcontext primary, ctx, cur;
    OK(cuDevicePrimaryCtxRetain(&primary, dev));
    OK(cuDevicePrimaryCtxGetState(dev, &flags, &active));
    CHECK(active == 1);
    OK(cuDevicePrimaryCtxRelease(dev));

    OK(cuCtxCreate(&ctx, NULL, 0, dev));
    OK(cuCtxGetCurrent(&cur));
    CHECK(cur == ctx);
    OK(cuCtxPushCurrent(primary));
    OK(cuCtxGetCurrent(&cur));
    CHECK(cur == primary);
    OK(cuCtxPopCurrent(&cur));
    CHECK(cur == primary);
    OK(cuCtxGetCurrent(&cur));
    CHECK(cur == ctx);
    CUdevice cdev = -1;
    OK(cuCtxGetDevice(&cdev));
    CHECK(cdev == 0);
    size_t mfree = 0, mtotal = 0;
    OK(cuMemGetInfo(&mfree, &mtotal));
    CHECK(mtotal > 0);
    EXPECT(cuMemAlloc(&p, 0), CUDA_ERROR_INVALID_VALUE);

    /* Modules: PTX text in memory. */
    CUmodule mod;
    OK(cuModuleLoadData(&mod, ptx));
    run_saxpy(mod, "PTX");
    run_rest(mod);
    OK(cuModuleUnload(mod));
    EXPECT(cuModuleUnload(mod), CUDA_ERROR_INVALID_HANDLE);
    CUfunction f;
    EXPECT(cuModuleGetFunction(&f, mod, "saxpy"), CUDA_ERROR_INVALID_HANDLE);

    /* A fat binary in memory, from a file, and as a library. */
    OK(cuModuleLoadDataEx(&mod, fat, 0, 0, 0));
    run_saxpy(mod, "fat binary");
    OK(cuModuleUnload(mod));
    OK(cuModuleLoad(&mod, argv[2]));
    run_saxpy(mod, "fat binary file");
    OK(cuModuleUnload(mod));
    OK(cuModuleLoad(&mod, argv[1]));
    run_saxpy(mod, "PTX file");
    OK(cuModuleUnload(mod));
    /* The JIT linker, as NVRTC- and Numba-style code drives it. */
    CUlinkState link;
    OK(cuLinkCreate(0, 0, 0, &link));
    OK(cuLinkAddData(link, CU_JIT_INPUT_PTX, ptx, ptx_size, "kernels.ptx", 0, 0, 0));
    void *linked = 0;
    size_t linked_size = 0;
    OK(cuLinkComplete(link, &linked, &linked_size));
    CHECK(linked && linked_size > 0);
    OK(cuModuleLoadData(&mod, linked));
    OK(cuLinkDestroy(link));
    run_saxpy(mod, "linked PTX");
    CUfunction all[8];
    OK(cuModuleEnumerateFunctions(all, 4, mod));
    OK(cuModuleUnload(mod));
    OK(cuLinkCreate(0, 0, 0, &link));
    EXPECT(cuLinkAddData(link, CU_JIT_INPUT_CUBIN, ptx, 16, "x.cubin", 0, 0, 0), CUDA_ERROR_NO_BINARY_FOR_GPU);
    EXPECT(cuLinkComplete(link, &linked, &linked_size), CUDA_ERROR_INVALID_VALUE);
    OK(cuLinkDestroy(link));
    EXPECT(cuLinkDestroy(link), CUDA_ERROR_INVALID_HANDLE);

    char bus[32];
    OK(cuDeviceGetPCIBusId(bus, sizeof bus, dev));
    CUdevice by_bus = -1;
    OK(cuDeviceGetByPCIBusId(&by_bus, bus));
    CHECK(by_bus == 0);

    CUlibrary lib;
    CUkernel kern;
    OK(cuLibraryLoadData(&lib, fat, 0, 0, 0, 0, 0, 0));
    OK(cuLibraryGetKernel(&kern, lib, "saxpy"));
    OK(cuKernelGetFunction(&f, kern));
    OK(cuLibraryGetModule(&mod, lib));
    run_saxpy(mod, "library");
    OK(cuLibraryUnload(lib));

    /* Bad images. */
    EXPECT(cuModuleLoadData(&mod, "this is not PTX"), CUDA_ERROR_INVALID_PTX);
    EXPECT(cuModuleLoadData(&mod, ""), CUDA_ERROR_INVALID_IMAGE);
    EXPECT(cuModuleLoadData(&mod, 0), CUDA_ERROR_INVALID_VALUE);
    char *broken = malloc(ptx_size + 1);
    memcpy(broken, ptx, ptx_size + 1);
    char *body = strstr(broken, ".entry saxpy");
    if (body)
        memcpy(body, ".entry @@@@@", 12);
    EXPECT(cuModuleLoadData(&mod, broken), CUDA_ERROR_INVALID_PTX);
    char *fat2 = malloc(fat_size);
    memcpy(fat2, fat, fat_size);
    fat2[8] = (char)0xff; /* the entries' size, far past the end */
    fat2[13] = (char)0x7f;
    EXPECT(cuModuleLoadData(&mod, fat2), CUDA_ERROR_INVALID_IMAGE);
    memcpy(fat2, fat, fat_size);
    fat2[16] = 9; /* an unknown entry kind */
    CUresult r = cuModuleLoadData(&mod, fat2);
    CHECK(r == CUDA_ERROR_INVALID_IMAGE || r == CUDA_SUCCESS);
    if (r == CUDA_SUCCESS)
        OK(cuModuleUnload(mod));
    EXPECT(cuModuleLoadData(&mod, cubin_only), CUDA_ERROR_NO_BINARY_FOR_GPU);
    EXPECT(cuModuleLoad(&mod, "/nonexistent/kernels.ptx"), CUDA_ERROR_FILE_NOT_FOUND);

    /* cuGetProcAddress: a versioned lookup, an unknown name, an entry point
     * the CPU driver does not implement. */
    CUresult (*alloc)(CUdeviceptr *, size_t) = 0;
    CUdriverProcAddressQueryResult st;
    OK(cuGetProcAddress("cuMemAlloc", (void **)&alloc, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &st));
    CHECK(st == CU_GET_PROC_ADDRESS_SUCCESS && alloc);
    if (alloc) {
        OK(alloc(&p, 64));
        OK(cuMemFree(p));
    }
    void *fn = 0;
    EXPECT(cuGetProcAddress("cuNoSuchFunction", &fn, 13000, 0, &st), CUDA_ERROR_NOT_FOUND);
    CHECK(st == CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
    EXPECT(cuGetProcAddress("cuLaunchKernelEx", &fn, 11000, 0, &st), CUDA_ERROR_NOT_FOUND);
    CHECK(st == CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
    CUresult (*graph_create)(void **, unsigned) = 0;
    OK(cuGetProcAddress("cuGraphCreate", (void **)&graph_create, 13000, 0, &st));
    if (graph_create) {
        void *g;
        EXPECT(graph_create(&g, 0), CUDA_ERROR_NOT_SUPPORTED);
    }

    /* Context teardown. */
    OK(cuCtxDestroy(ctx));
    EXPECT(cuCtxDestroy(ctx), CUDA_ERROR_INVALID_CONTEXT);
    EXPECT(cuCtxPushCurrent(ctx), CUDA_ERROR_INVALID_CONTEXT);
    EXPECT(cuMemAlloc(&p, 16), CUDA_ERROR_INVALID_CONTEXT);

    if (failures) {
        printf("FAIL driver_api: %d failures\n", failures);
        return 1;
    }
    printf("PASS driver_api\n");
    return 0;
}
