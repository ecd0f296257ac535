/* cucc: device-side enumerations. */
#ifndef __CUCC_DEVICE_TYPES_H__
#define __CUCC_DEVICE_TYPES_H__

enum cudaRoundMode {
    cudaRoundNearest,
    cudaRoundZero,
    cudaRoundPosInf,
    cudaRoundMinInf
};

#endif
