#include "common.h"
float host_sum(const float *v, int n) {
  float s = 0;
  for (int i = 0; i < n; i++) s += v[i];
  return s;
}
