// Forward goto in device code, as Rodinia's mummergpu uses it: jumps out of
// nested loops to the code after them, to a common exit at the end of the
// kernel, to a label later in a loop body (a continue of an outer loop),
// out of a switch and within one of its cases, several gotos to one label,
// and two labelled blocks ending a loop body as mummergpu's kernel has.
// Every result is an integer computed on the host too.
#include <cstdio>
#include "check.h"

// The first negative element of each row, or -1: a goto out of two loops.
__global__ void find_first(const int *a, int rows, int cols, int *out) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  int found = -1;
  for (int c = 0; c < cols; ++c) {
    for (int k = 0; k < 2; ++k) {
      if (a[r * cols + c] + k < 0) {
        found = c;
        goto done;
      }
    }
  }
  found = found - 1;  // skipped when a negative element was found
done:
  out[r] = found;
}

// A common exit: several gotos to one label at the end, from different
// depths; the statements between them and the label are skipped.
__device__ int classify(int v, int *steps) {
  int s = 0;
  if (v == 0) goto out;
  s += 1;
  for (int i = 0; i < 8; ++i) {
    s += 10;
    if (v & (1 << i)) {
      if (i > 4) goto out;
      while (s < 1000) {
        s += 100;
        if (s > v) goto out;
      }
    }
  }
  s += 5000;
out:
  *steps = s;
  return s % 7;
}

__global__ void common_exit(const int *a, int n, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int steps;
    int k = classify(a[i], &steps);
    out[2 * i] = k;
    out[2 * i + 1] = steps;
  }
}

// A label later in an outer loop's body: the goto leaves the inner loop
// and skips the rest of the iteration (mummergpu's next-suffix pattern).
// The label is reached by both paths, every iteration.
__global__ void skip_rest(const int *a, int n, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int acc = 0;
  for (int j = 0; j < 6; ++j) {
    int v = a[(i + j) % n];
    for (int k = 0; k < 4; ++k) {
      if ((v >> k) % 5 == 3) goto next;
      acc += k;
    }
    acc += 100;
    switch (v & 3) {
      case 0:
        acc += 1;
        break;
      case 1:
        if (v & 8) goto next;
        acc += 2;
        break;
      case 2:
        // A goto within one case.
        if (v & 16) goto joined;
        acc += 4;
      joined:
        acc += 5;
        break;
      default:
        acc += 3;
    }
    acc *= 3;
  next:
    acc += j;
  }
  out[i] = acc;
}

// mummergpu's kernel shape: two labelled blocks ending a loop body, one
// goto to the first from a doubly nested loop and one to the second (which
// skips the first) from the outer one.
__global__ void two_labels(const int *a, int n, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int acc = 0;
  for (int q = 0; q < 5; ++q) {
    int v = a[(i + q) % n];
    int steps = 0;
    while (steps < 6) {
      if (((v >> steps) & 7) == 5) {
        acc += 1000;
        goto next;
      }
      int k = 0;
      while (k < 3) {
        if ((v + k) % 11 == steps) goto record;
        ++k;
      }
      ++steps;
    }
    acc += 7;
  record:
    { acc += steps * 10; }
  next:
    { acc = acc * 3 % 100003; }
  }
  out[i] = acc;
}

static int two_labels_ref(const int *a, int n, int i) {
  int acc = 0;
  for (int q = 0; q < 5; ++q) {
    int v = a[(i + q) % n];
    int steps = 0, exit = 0;  // 1: record, 2: next
    while (steps < 6 && !exit) {
      if (((v >> steps) & 7) == 5) {
        acc += 1000;
        exit = 2;
        break;
      }
      for (int k = 0; k < 3 && !exit; ++k)
        if ((v + k) % 11 == steps) exit = 1;
      if (!exit) ++steps;
    }
    if (exit == 0) acc += 7;
    if (exit != 2) acc += steps * 10;
    acc = acc * 3 % 100003;
  }
  return acc;
}

static int find_first_ref(const int *row, int cols) {
  for (int c = 0; c < cols; ++c)
    for (int k = 0; k < 2; ++k)
      if (row[c] + k < 0) return c;
  return -2;
}

static int classify_ref(int v, int *steps) {
  int s = 0;
  if (v == 0) {
    *steps = s;
    return 0;
  }
  s += 1;
  for (int i = 0; i < 8; ++i) {
    s += 10;
    if (v & (1 << i)) {
      if (i > 4) {
        *steps = s;
        return s % 7;
      }
      while (s < 1000) {
        s += 100;
        if (s > v) {
          *steps = s;
          return s % 7;
        }
      }
    }
  }
  s += 5000;
  *steps = s;
  return s % 7;
}

static int skip_rest_ref(const int *a, int n, int i) {
  int acc = 0;
  for (int j = 0; j < 6; ++j) {
    int v = a[(i + j) % n];
    bool skip = false;
    for (int k = 0; k < 4 && !skip; ++k) {
      if ((v >> k) % 5 == 3)
        skip = true;
      else
        acc += k;
    }
    if (!skip) {
      acc += 100;
      int m = v & 3;
      if (m == 0)
        acc += 1;
      else if (m == 1) {
        if (v & 8)
          skip = true;
        else
          acc += 2;
      } else if (m == 2) {
        if (!(v & 16)) acc += 4;
        acc += 5;
      } else
        acc += 3;
      if (!skip) acc *= 3;
    }
    acc += j;
  }
  return acc;
}

int main() {
  const int rows = 40, cols = 12, n = rows * cols;
  int a[n];
  unsigned s = 99;
  for (int k = 0; k < n; ++k) a[k] = (int)(lcg(s) % 2000) - 20;
  for (int k = 0; k < 8; ++k) a[k * 17] = 0;

  int *da, *dout;
  cudaMalloc(&da, sizeof a);
  cudaMalloc(&dout, 2 * n * sizeof(int));
  cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice);
  int bad = 0;

  int out[2 * n];
  find_first<<<2, 32>>>(da, rows, cols, dout);
  cudaMemcpy(out, dout, rows * sizeof(int), cudaMemcpyDeviceToHost);
  for (int r = 0; r < rows; ++r) {
    int want = find_first_ref(a + r * cols, cols);
    if (out[r] != want && bad++ < 10) printf("find_first %d: got %d want %d\n", r, out[r], want);
  }

  common_exit<<<(n + 63) / 64, 64>>>(da, n, dout);
  cudaMemcpy(out, dout, 2 * n * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) {
    int steps;
    int k = classify_ref(a[i], &steps);
    if ((out[2 * i] != k || out[2 * i + 1] != steps) && bad++ < 10)
      printf("common_exit %d: %d: got %d %d want %d %d\n", i, a[i], out[2 * i], out[2 * i + 1],
             k, steps);
  }

  skip_rest<<<(n + 63) / 64, 64>>>(da, n, dout);
  cudaMemcpy(out, dout, n * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) {
    int want = skip_rest_ref(a, n, i);
    if (out[i] != want && bad++ < 10) printf("skip_rest %d: got %d want %d\n", i, out[i], want);
  }

  two_labels<<<(n + 63) / 64, 64>>>(da, n, dout);
  cudaMemcpy(out, dout, n * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) {
    int want = two_labels_ref(a, n, i);
    if (out[i] != want && bad++ < 10) printf("two_labels %d: got %d want %d\n", i, out[i], want);
  }

  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    printf("sync: %s\n", cudaGetErrorName(e));
    return 1;
  }
  return report("goto_forward", bad);
}
