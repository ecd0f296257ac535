// A 2D cudaArray read through a texture object with linear filtering and
// normalized coordinates (clamp in x, wrap in y), checked against the
// documented filtering rule computed on the host.
#include <cmath>
#include <cstdio>
#include <cstring>

__global__ void resample(cudaTextureObject_t t, float *out, int w, int h) {
  int x = threadIdx.x, y = threadIdx.y;
  float u = (x + 0.5f) / w;
  float v = (y + 0.5f) / h - 0.3f;
  out[y * w + x] = tex2D<float>(t, u, v);
}

#include "expect_status.h"

extern "C" cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *, struct cudaExtent *, unsigned int *, cudaArray_t);

const int W = 8, H = 6;      // texels
const int OW = 20, OH = 14;  // outputs
static float img[H][W];

static float texel(int x, int y) {
  x = x < 0 ? 0 : x >= W ? W - 1 : x;  // clamp
  y = ((y % H) + H) % H;               // wrap
  return img[y][x];
}

static float weight(float f) { return roundf(f * 256.0f) / 256.0f; }

static float reference(float u, float v) {
  float xb = u * W - 0.5f, yb = v * H - 0.5f;
  float fx = floorf(xb), fy = floorf(yb);
  int x0 = (int)fx, y0 = (int)fy;
  float a = weight(xb - fx), b = weight(yb - fy);
  float r0 = (1 - a) * texel(x0, y0) + a * texel(x0 + 1, y0);
  float r1 = (1 - a) * texel(x0, y0 + 1) + a * texel(x0 + 1, y0 + 1);
  return (1 - b) * r0 + b * r1;
}

int main() {
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) img[y][x] = (float)(x * x) + 10.0f * y;

  cudaChannelFormatDesc fmt = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
  cudaArray_t arr;
  CHECK(cudaMallocArray(&arr, &fmt, W, H), cudaSuccess);
  CHECK(cudaMemcpy2DToArray(arr, 0, 0, img, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice), cudaSuccess);
  // Out of bounds and bad pitch.
  CHECK(cudaMemcpy2DToArray(arr, 4, 0, img, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
  CHECK(cudaMemcpy2DToArray(arr, 0, 0, img, 4, W * sizeof(float), H, cudaMemcpyHostToDevice), cudaErrorInvalidPitchValue);
  cudaGetLastError();

  static float back[H][W];
  CHECK(cudaMemcpy2DFromArray(back, W * sizeof(float), arr, 0, 0, W * sizeof(float), H, cudaMemcpyDeviceToHost), cudaSuccess);
  if (memcmp(back, img, sizeof img) != 0) { printf("FAIL: array round trip\n"); return 1; }
  cudaChannelFormatDesc got;
  cudaExtent ext;
  unsigned flags = 99;
  CHECK(cudaArrayGetInfo(&got, &ext, &flags, arr), cudaSuccess);
  if (got.x != 32 || got.f != cudaChannelFormatKindFloat || ext.width != W || ext.height != H || ext.depth != 0 || flags != 0) {
    printf("FAIL: cudaArrayGetInfo\n");
    return 1;
  }

  cudaResourceDesc res;
  memset(&res, 0, sizeof res);
  res.resType = cudaResourceTypeArray;
  res.res.array.array = arr;
  cudaTextureDesc td;
  memset(&td, 0, sizeof td);
  td.addressMode[0] = cudaAddressModeClamp;
  td.addressMode[1] = cudaAddressModeWrap;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = 1;
  cudaTextureObject_t t;
  CHECK(cudaCreateTextureObject(&t, &res, &td, NULL), cudaSuccess);

  float *d_out;
  CHECK(cudaMalloc(&d_out, OW * OH * sizeof(float)), cudaSuccess);
  resample<<<1, dim3(OW, OH)>>>(t, d_out, OW, OH);
  CHECK(cudaDeviceSynchronize(), cudaSuccess);
  static float out[OH * OW];
  CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost), cudaSuccess);
  for (int y = 0; y < OH; y++) {
    for (int x = 0; x < OW; x++) {
      float u = (x + 0.5f) / OW, v = (y + 0.5f) / OH - 0.3f;
      float want = reference(u, v), have = out[y * OW + x];
      if (fabsf(want - have) > 1e-4f * (1.0f + fabsf(want))) {
        printf("FAIL at (%d, %d): %f, want %f\n", x, y, have, want);
        return 1;
      }
    }
  }
  CHECK(cudaDestroyTextureObject(t), cudaSuccess);
  CHECK(cudaFreeArray(arr), cudaSuccess);
  CHECK(cudaFreeArray(arr), cudaErrorInvalidResourceHandle);
  cudaGetLastError();
  printf("PASS tex_array2d\n");
  return 0;
}
