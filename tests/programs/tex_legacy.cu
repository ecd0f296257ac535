// A legacy texture reference bound to linear memory with cudaBindTexture and
// read with tex1Dfetch (a gather; indices past the buffer read 0).
#include <cstdio>

texture<float, 1, cudaReadModeElementType> texIn;

__global__ void gather(float *out, const int *idx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch(texIn, idx[i]);
}

#include "expect_status.h"

int main() {
  const int n = 777, m = 500;
  static float h[m], out[n];
  static int idx[n];
  for (int i = 0; i < m; i++) h[i] = 3.0f * i + 1.0f;
  for (int i = 0; i < n; i++) idx[i] = (i * 37) % (m + 20) - 10;  // some out of range
  float *d_in, *d_out;
  int *d_idx;
  CHECK(cudaMalloc(&d_in, m * sizeof(float)), cudaSuccess);
  CHECK(cudaMalloc(&d_out, n * sizeof(float)), cudaSuccess);
  CHECK(cudaMalloc(&d_idx, n * sizeof(int)), cudaSuccess);
  CHECK(cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice), cudaSuccess);
  CHECK(cudaMemcpy(d_idx, idx, sizeof idx, cudaMemcpyHostToDevice), cudaSuccess);

  size_t offset = 123;
  CHECK(cudaGetTextureAlignmentOffset(&offset, &texIn), cudaErrorInvalidTextureBinding);
  CHECK(cudaBindTexture(&offset, texIn, d_in, m * sizeof(float)), cudaSuccess);
  if (offset != 0) { printf("FAIL: offset %zu\n", offset); return 1; }
  CHECK(cudaGetTextureAlignmentOffset(&offset, &texIn), cudaSuccess);
  const textureReference *ref = NULL;
  CHECK(cudaGetTextureReference(&ref, &texIn), cudaSuccess);
  if (ref != &texIn) { printf("FAIL: cudaGetTextureReference\n"); return 1; }

  // Errors: an unregistered reference, an unknown pointer.
  textureReference fake = {};
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  CHECK(cudaBindTexture(NULL, &fake, d_in, &fd, 4), cudaErrorInvalidTexture);
  CHECK(cudaBindTexture(NULL, &texIn, (void *)h, &fd, 4), cudaErrorInvalidValue);
  cudaGetLastError();

  gather<<<(n + 127) / 128, 128>>>(d_out, d_idx, n);
  CHECK(cudaDeviceSynchronize(), cudaSuccess);
  CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost), cudaSuccess);
  for (int i = 0; i < n; i++) {
    float want = idx[i] >= 0 && idx[i] < m ? h[idx[i]] : 0.0f;
    if (out[i] != want) {
      printf("FAIL at %d (index %d): %f, want %f\n", i, idx[i], out[i], want);
      return 1;
    }
  }

  // Unbound: reads give 0.
  CHECK(cudaUnbindTexture(texIn), cudaSuccess);
  gather<<<(n + 127) / 128, 128>>>(d_out, d_idx, n);
  CHECK(cudaDeviceSynchronize(), cudaSuccess);
  CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost), cudaSuccess);
  for (int i = 0; i < n; i++) {
    if (out[i] != 0.0f) { printf("FAIL unbound at %d: %f\n", i, out[i]); return 1; }
  }
  printf("PASS tex_legacy\n");
  return 0;
}
