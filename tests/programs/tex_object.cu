// A texture object on linear memory read with tex1Dfetch; reads past the
// end of the buffer give 0.
#include <cstdio>
#include <cstring>

__global__ void scale(cudaTextureObject_t t, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * tex1Dfetch<float>(t, i) + tex1Dfetch<float>(t, i + n);
}

#include "expect_status.h"

extern "C" cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *, cudaTextureObject_t);

int main() {
  const int n = 1000;
  static float h[n], out[n];
  for (int i = 0; i < n; i++) h[i] = i * 0.5f - 7.0f;
  float *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, n * sizeof(float)), cudaSuccess);
  CHECK(cudaMalloc(&d_out, n * sizeof(float)), cudaSuccess);
  CHECK(cudaMemcpy(d_in, h, n * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);

  cudaResourceDesc res;
  memset(&res, 0, sizeof res);
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = d_in;
  res.res.linear.desc = cudaCreateChannelDesc<float>();
  res.res.linear.sizeInBytes = n * sizeof(float);
  cudaTextureDesc td;
  memset(&td, 0, sizeof td);
  td.readMode = cudaReadModeElementType;
  td.addressMode[0] = cudaAddressModeClamp;
  cudaTextureObject_t t = 0;
  CHECK(cudaCreateTextureObject(&t, &res, &td, NULL), cudaSuccess);
  if (t == 0) { printf("FAIL: texture object 0\n"); return 1; }

  cudaResourceDesc back;
  CHECK(cudaGetTextureObjectResourceDesc(&back, t), cudaSuccess);
  if (back.resType != cudaResourceTypeLinear || back.res.linear.devPtr != d_in) {
    printf("FAIL: resource desc\n");
    return 1;
  }
  cudaTextureDesc tback;
  CHECK(cudaGetTextureObjectTextureDesc(&tback, t), cudaSuccess);
  if (tback.addressMode[0] != cudaAddressModeClamp) { printf("FAIL: texture desc\n"); return 1; }

  // Bad arguments.
  cudaTextureObject_t bad;
  CHECK(cudaCreateTextureObject(&bad, NULL, &td, NULL), cudaErrorInvalidValue);
  cudaResourceDesc wrong = res;
  wrong.res.linear.desc.x = 24;
  CHECK(cudaCreateTextureObject(&bad, &wrong, &td, NULL), cudaErrorInvalidChannelDescriptor);
  wrong = res;
  wrong.res.linear.sizeInBytes = 2 * n * sizeof(float);
  CHECK(cudaCreateTextureObject(&bad, &wrong, &td, NULL), cudaErrorInvalidValue);
  cudaGetLastError();

  scale<<<(n + 255) / 256, 256>>>(t, d_out, n);
  CHECK(cudaDeviceSynchronize(), cudaSuccess);
  CHECK(cudaMemcpy(out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
  for (int i = 0; i < n; i++) {
    if (out[i] != 2.0f * h[i]) {
      printf("FAIL at %d: %f, want %f\n", i, out[i], 2.0f * h[i]);
      return 1;
    }
  }
  CHECK(cudaDestroyTextureObject(t), cudaSuccess);
  CHECK(cudaDestroyTextureObject(t), cudaErrorInvalidValue);
  cudaGetLastError();
  printf("PASS tex_object\n");
  return 0;
}
