/* A C program linked against the built libcudart.so.13. It is its own host
 * object (the standard registration protocol with a cucc blob) and its own
 * device object (cucc_abi.h registration), then exercises the API. Prints
 * "ok" and exits 0 on success; prints the failed check and exits 1 otherwise. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cucc_abi.h"

/* Minimal declarations of the CUDA runtime API used here. */
typedef int cudaError_t;
typedef struct { unsigned x, y, z; } dim3;
typedef void *cudaStream_t;
typedef void *cudaEvent_t;
enum { cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2 };
void **__cudaRegisterFatBinary(void *wrapper);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaUnregisterFatBinary(void **handle);
void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                            const char *deviceName, int threadLimit, void *tid,
                            void *bid, void *bDim, void *gDim, int *wSize);
void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress,
                       const char *deviceName, int ext, size_t size,
                       int constant, int global);
unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shmem,
                                     void *stream);
cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shmem,
                                       void *stream);
cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block,
                             void **args, size_t shmem, cudaStream_t stream);
cudaError_t cudaMalloc(void **p, size_t n);
cudaError_t cudaFree(void *p);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, int kind);
cudaError_t cudaMemcpyToSymbol(const void *sym, const void *src, size_t n,
                               size_t offset, int kind);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaGetLastError(void);
const char *cudaGetErrorName(cudaError_t e);
const char *cudaGetErrorString(cudaError_t e);
cudaError_t cudaGetDeviceProperties(void *prop, int device);
cudaError_t cudaEventCreate(cudaEvent_t *e);
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s);
cudaError_t cudaEventSynchronize(cudaEvent_t e);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b);
cudaError_t cudaRuntimeGetVersion(int *v);

#define CHECK(cond)                                                    \
  do {                                                                 \
    if (!(cond)) {                                                     \
      printf("check failed at line %d: %s\n", __LINE__, #cond);        \
      return 1;                                                        \
    }                                                                  \
  } while (0)

/* ---- "device object" ---------------------------------------------------- */
static const uint8_t module_id[16] = "basic-c-module-1";
static float dev_scale; /* storage of __device__ float scale */

/* saxpy: y[i] = scale * x[i] + y[i] (params: x, y, n) */
static void saxpy_entry(void **args, const cucc_launch *l, uint32_t begin,
                        uint32_t end, void *scratch) {
  const float *x = *(const float **)args[0];
  float *y = *(float **)args[1];
  int n = *(int *)args[2];
  uint32_t bt = l->block[0] * l->block[1] * l->block[2];
  (void)scratch;
  for (uint32_t b = begin; b < end; ++b)
    for (uint32_t t = 0; t < bt; ++t) {
      int i = (int)(b * bt + t);
      if (i < n) y[i] = dev_scale * x[i] + y[i];
    }
}

static void trap_entry(void **args, const cucc_launch *l, uint32_t begin,
                       uint32_t end, void *scratch) {
  (void)args; (void)l; (void)begin; (void)end; (void)scratch;
  __cucc_assert_fail("i < n", "basic.cu", 7, "void trap_kernel()");
}

static const uint32_t saxpy_params[] = {8, 8, 4};
static const cucc_kernel_info kernels[] = {
    {"_Z5saxpyPKfPfi", saxpy_entry, 0, 3, 0, saxpy_params},
    {"_Z11trap_kernelv", trap_entry, 0, 0, 0, NULL},
};
static const cucc_var_info vars[] = {{"scale", &dev_scale, sizeof(float)}};

__attribute__((constructor)) static void register_device_object(void) {
  __cucc_register_module(module_id, kernels, 2);
  __cucc_register_variables(module_id, vars, 1);
}

/* ---- "host object" ------------------------------------------------------ */
static struct {
  char magic[8];
  uint8_t id[16];
  uint32_t version, header_size;
  uint64_t total_size;
} blob = {{'C', 'U', 'C', 'C', 'M', 'O', 'D', '1'},
          "basic-c-module-1", 1, 40, 40};
static struct {
  int magic, version;
  const void *data;
  void *unused;
} wrapper = {0x466243b1, 1, &blob, NULL};

static float scale; /* host shadow of __device__ float scale */
static void saxpy_stub(void) {}
static void trap_stub(void) {}

static cudaError_t launch(const void *stub, dim3 g, dim3 b, void **args) {
  __cudaPushCallConfiguration(g, b, 0, NULL);
  dim3 gg, bb;
  size_t sh;
  cudaStream_t st;
  if (__cudaPopCallConfiguration(&gg, &bb, &sh, &st)) return 52;
  return cudaLaunchKernel(stub, gg, bb, args, sh, st);
}

int main(void) {
  void **h = __cudaRegisterFatBinary(&wrapper);
  __cudaRegisterFunction(h, (const char *)saxpy_stub, "_Z5saxpyPKfPfi",
                         "_Z5saxpyPKfPfi", -1, 0, 0, 0, 0, 0);
  __cudaRegisterFunction(h, (const char *)trap_stub, "_Z11trap_kernelv",
                         "_Z11trap_kernelv", -1, 0, 0, 0, 0, 0);
  __cudaRegisterVar(h, (char *)&scale, "scale", "scale", 0, sizeof(float), 0, 0);
  __cudaRegisterFatBinaryEnd(h);

  int version = 0;
  CHECK(cudaRuntimeGetVersion(&version) == 0 && version == 13000);
  /* cudaDeviceProp, CUDA 13 layout: 1008 bytes, warpSize at 308, major at 360. */
  unsigned char prop[1008];
  memset(prop, 0xff, sizeof prop);
  CHECK(cudaGetDeviceProperties(prop, 0) == 0);
  int warp, major;
  memcpy(&warp, prop + 308, 4);
  memcpy(&major, prop + 360, 4);
  CHECK(warp == 32 && major == 8 && prop[0] != 0 && prop[255] == 0);

  enum { N = 5000 };
  static float x[N], y[N];
  for (int i = 0; i < N; ++i) { x[i] = (float)i; y[i] = 1.0f; }
  float *dx, *dy;
  CHECK(cudaMalloc((void **)&dx, sizeof x) == 0);
  CHECK(cudaMalloc((void **)&dy, sizeof y) == 0);
  CHECK(cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice) == 0);
  CHECK(cudaMemcpy(dy, y, sizeof y, cudaMemcpyHostToDevice) == 0);
  float three = 3.0f;
  CHECK(cudaMemcpyToSymbol(&scale, &three, sizeof three, 0, cudaMemcpyHostToDevice) == 0);

  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start) == 0 && cudaEventCreate(&stop) == 0);
  CHECK(cudaEventRecord(start, NULL) == 0);
  int n = N;
  void *args[] = {&dx, &dy, &n};
  dim3 grid = {(N + 127) / 128, 1, 1}, block = {128, 1, 1};
  CHECK(launch((const void *)saxpy_stub, grid, block, args) == 0);
  CHECK(cudaEventRecord(stop, NULL) == 0);
  CHECK(cudaEventSynchronize(stop) == 0);
  float ms = -1.0f;
  CHECK(cudaEventElapsedTime(&ms, start, stop) == 0 && ms >= 0.0f);
  CHECK(cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost) == 0);
  for (int i = 0; i < N; ++i) CHECK(y[i] == 3.0f * (float)i + 1.0f);

  /* Bad arguments: not sticky. */
  CHECK(cudaMemcpy(dx, x, sizeof x + 4, cudaMemcpyHostToDevice) == 1);
  CHECK(strcmp(cudaGetErrorName(cudaGetLastError()), "cudaErrorInvalidValue") == 0);
  CHECK(cudaGetLastError() == 0);
  CHECK(cudaFree(x) == 1);
  dim3 big = {1, 1, 1}, huge = {2048, 1, 1};
  CHECK(launch((const void *)saxpy_stub, big, huge, args) == 9);
  CHECK(cudaGetLastError() == 9);

  /* A failed device assertion is sticky; the process survives. */
  CHECK(launch((const void *)trap_stub, big, big, NULL) == 0);
  CHECK(cudaDeviceSynchronize() == 710);
  CHECK(cudaGetLastError() == 710);
  CHECK(cudaMalloc((void **)&dx, 4) == 710);
  printf("%s\n", cudaGetErrorString(710));
  CHECK(cudaDeviceReset() == 0);
  CHECK(cudaMalloc((void **)&dx, 4) == 0);
  CHECK(cudaFree(dx) == 0);

  __cudaUnregisterFatBinary(h);
  printf("ok\n");
  return 0;
}
