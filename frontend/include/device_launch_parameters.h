/* cucc: the built-in index variables.
 *
 * threadIdx, blockIdx, blockDim, gridDim and warpSize are external constant
 * device variables declared here; cucc's frontend maps a read of
 * `threadIdx.x` (a MemberExpr on a DeclRefExpr naming the VarDecl declared in
 * this file) to the matching IR op.  Their definitions do not exist. */
#ifndef __CUCC_DEVICE_LAUNCH_PARAMETERS_H__
#define __CUCC_DEVICE_LAUNCH_PARAMETERS_H__
/* The guard NVIDIA's device_launch_parameters.h defines: programs test it (helper_cuda.h
 * compiles its error helpers only when __DRIVER_TYPES_H__ is defined). */
#define __DEVICE_LAUNCH_PARAMETERS_H__
#include "vector_types.h"

extern const __device__ uint3 threadIdx;
extern const __device__ uint3 blockIdx;
extern const __device__ dim3 blockDim;
extern const __device__ dim3 gridDim;
extern const __device__ int warpSize;

#endif
