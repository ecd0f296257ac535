/* cucc: device-side enumerations. */
#ifndef __CUCC_DEVICE_TYPES_H__
#define __CUCC_DEVICE_TYPES_H__
/* The guard NVIDIA's device_types.h defines: programs test it (helper_cuda.h
 * compiles its error helpers only when __DRIVER_TYPES_H__ is defined). */
#define __DEVICE_TYPES_H__

enum cudaRoundMode {
    cudaRoundNearest,
    cudaRoundZero,
    cudaRoundPosInf,
    cudaRoundMinInf
};

#endif
