/* A C program for CUCC_PROFILE: known numbers of launches, copies, sets,
 * synchronisations, allocations and frees, so the test can check the
 * report's counts. Its own host and device object, as basic.c. */
#include <stdint.h>
#include <stdio.h>

#include "cucc_abi.h"

typedef int cudaError_t;
typedef struct { unsigned x, y, z; } dim3;
typedef void *cudaStream_t;
enum { H2D = 1, D2H = 2, D2D = 3 };
void **__cudaRegisterFatBinary(void *wrapper);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                            const char *deviceName, int threadLimit, void *tid,
                            void *bid, void *bDim, void *gDim, int *wSize);
unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shmem,
                                     void *stream);
cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shmem,
                                       void *stream);
cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block,
                             void **args, size_t shmem, cudaStream_t stream);
cudaError_t cudaMalloc(void **p, size_t n);
cudaError_t cudaFree(void *p);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, int kind);
cudaError_t cudaMemset(void *p, int value, size_t n);
cudaError_t cudaDeviceSynchronize(void);

#define CHECK(cond)                                             \
  do {                                                          \
    if (!(cond)) {                                              \
      printf("check failed at line %d: %s\n", __LINE__, #cond); \
      return 1;                                                 \
    }                                                           \
  } while (0)

static const uint8_t module_id[16] = "profile-c-mod-01";

/* scale(float *p, int n): p[i] *= 2 */
static void scale_entry(void **args, const cucc_launch *l, uint32_t begin,
                        uint32_t end, void *scratch) {
  float *p = *(float **)args[0];
  int n = *(int *)args[1];
  uint32_t bt = l->block[0];
  (void)scratch;
  for (uint32_t b = begin; b < end; ++b)
    for (uint32_t t = 0; t < bt; ++t) {
      int i = (int)(b * bt + t);
      if (i < n) p[i] *= 2.0f;
    }
}

/* fill_ones(float *p): p[i] = 1 (an unmangled, extern "C" name) */
static void fill_entry(void **args, const cucc_launch *l, uint32_t begin,
                       uint32_t end, void *scratch) {
  float *p = *(float **)args[0];
  uint32_t bt = l->block[0];
  (void)scratch;
  for (uint32_t b = begin; b < end; ++b)
    for (uint32_t t = 0; t < bt; ++t) p[b * bt + t] = 1.0f;
}

static const uint32_t scale_params[] = {8, 4};
static const uint32_t fill_params[] = {8};
static const cucc_kernel_info kernels[] = {
    {"_Z5scalePfi", scale_entry, 0, 2, 0, scale_params},
    {"fill_ones", fill_entry, 0, 1, 0, fill_params},
};

__attribute__((constructor)) static void register_device_object(void) {
  __cucc_register_module(module_id, kernels, 2);
}

static struct {
  char magic[8];
  uint8_t id[16];
  uint32_t version, header_size;
  uint64_t total_size;
} blob = {{'C', 'U', 'C', 'C', 'M', 'O', 'D', '1'}, "profile-c-mod-01", 1, 40, 40};
static struct {
  int magic, version;
  const void *data;
  void *unused;
} wrapper = {0x466243b1, 1, &blob, NULL};

static void scale_stub(void) {}
static void fill_stub(void) {}

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
  __cudaRegisterFunction(h, (const char *)scale_stub, "_Z5scalePfi",
                         "_Z5scalePfi", -1, 0, 0, 0, 0, 0);
  __cudaRegisterFunction(h, (const char *)fill_stub, "fill_ones", "fill_ones",
                         -1, 0, 0, 0, 0, 0);
  __cudaRegisterFatBinaryEnd(h);

  enum { N = 128 };
  static float x[N];
  for (int i = 0; i < N; ++i) x[i] = (float)i;
  float *d, *e;
  CHECK(cudaMalloc((void **)&d, sizeof x) == 0);                /* malloc 1 */
  CHECK(cudaMalloc((void **)&e, sizeof x) == 0);                /* malloc 2 */
  CHECK(cudaMemcpy(d, x, sizeof x, H2D) == 0);                  /* HtoD 1 */
  CHECK(cudaMemcpy(e, x, sizeof x, H2D) == 0);                  /* HtoD 2 */
  int n = N;
  void *scale_args[] = {&d, &n};
  dim3 g4 = {4, 1, 1}, b32 = {32, 1, 1}, g2 = {2, 1, 1}, b64 = {64, 1, 1};
  for (int i = 0; i < 5; ++i)
    CHECK(launch((const void *)scale_stub, g4, b32, scale_args) == 0);
  CHECK(cudaDeviceSynchronize() == 0);                          /* sync 1 */
  void *fill_args[] = {&e};
  for (int i = 0; i < 2; ++i)
    CHECK(launch((const void *)fill_stub, g2, b64, fill_args) == 0);
  CHECK(cudaMemset(d, 0, 4) == 0);                              /* memset 1 */
  CHECK(cudaMemcpy(d + 1, e + 1, 4, D2D) == 0);                 /* DtoD 1 */
  CHECK(cudaDeviceSynchronize() == 0);                          /* sync 2 */
  CHECK(cudaMemcpy(x, d, sizeof x, D2H) == 0);                  /* DtoH 1 */
  CHECK(x[0] == 0.0f && x[1] == 1.0f && x[2] == 64.0f);
  CHECK(cudaFree(d) == 0 && cudaFree(e) == 0);                  /* free 2 */
  printf("ok\n");
  return 0;
}
