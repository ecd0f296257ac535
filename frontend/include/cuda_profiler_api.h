/* cucc: profiler control (no-ops in cucc's runtime). */
#ifndef __CUCC_CUDA_PROFILER_API_H__
#define __CUCC_CUDA_PROFILER_API_H__
#include "cuda_runtime_api.h"
#endif
