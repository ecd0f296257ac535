#include "rdc.h"
__device__ __constant__ float table[16];
__device__ float lookup(int i) { return table[i] + 1.0f; }
