/* cucc: single and double precision complex numbers as cuBLAS uses them
 * (cuFloatComplex is a float2, cuDoubleComplex a double2), with the usual
 * helper functions. Part of cucc's own CUDA headers. */
#ifndef CU_COMPLEX_H_
#define CU_COMPLEX_H_
/* The guard NVIDIA's cuComplex.h defines: programs test it (helper_cuda.h
 * compiles its error helpers only when __DRIVER_TYPES_H__ is defined). */
#define CU_COMPLEX_H_

#include <math.h>
#include "vector_types.h"

#if defined(__cplusplus)
extern "C" {
#endif

typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;

#define __CUCC_CX static __inline__ __host__ __device__

__CUCC_CX float cuCrealf(cuFloatComplex x) { return x.x; }
__CUCC_CX float cuCimagf(cuFloatComplex x) { return x.y; }
__CUCC_CX cuFloatComplex make_cuFloatComplex(float r, float i) {
    cuFloatComplex z; z.x = r; z.y = i; return z;
}
__CUCC_CX cuFloatComplex cuConjf(cuFloatComplex x) { return make_cuFloatComplex(x.x, -x.y); }
__CUCC_CX cuFloatComplex cuCaddf(cuFloatComplex x, cuFloatComplex y) {
    return make_cuFloatComplex(x.x + y.x, x.y + y.y);
}
__CUCC_CX cuFloatComplex cuCsubf(cuFloatComplex x, cuFloatComplex y) {
    return make_cuFloatComplex(x.x - y.x, x.y - y.y);
}
__CUCC_CX cuFloatComplex cuCmulf(cuFloatComplex x, cuFloatComplex y) {
    return make_cuFloatComplex(x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x);
}
/* Division scaled by the divisor's larger part, against overflow. */
__CUCC_CX cuFloatComplex cuCdivf(cuFloatComplex x, cuFloatComplex y) {
    float s = fabsf(y.x) + fabsf(y.y);
    float ars = x.x / s, ais = x.y / s, brs = y.x / s, bis = y.y / s;
    float q = brs * brs + bis * bis;
    return make_cuFloatComplex((ars * brs + ais * bis) / q, (ais * brs - ars * bis) / q);
}
__CUCC_CX float cuCabsf(cuFloatComplex x) { return hypotf(x.x, x.y); }

__CUCC_CX double cuCreal(cuDoubleComplex x) { return x.x; }
__CUCC_CX double cuCimag(cuDoubleComplex x) { return x.y; }
__CUCC_CX cuDoubleComplex make_cuDoubleComplex(double r, double i) {
    cuDoubleComplex z; z.x = r; z.y = i; return z;
}
__CUCC_CX cuDoubleComplex cuConj(cuDoubleComplex x) { return make_cuDoubleComplex(x.x, -x.y); }
__CUCC_CX cuDoubleComplex cuCadd(cuDoubleComplex x, cuDoubleComplex y) {
    return make_cuDoubleComplex(x.x + y.x, x.y + y.y);
}
__CUCC_CX cuDoubleComplex cuCsub(cuDoubleComplex x, cuDoubleComplex y) {
    return make_cuDoubleComplex(x.x - y.x, x.y - y.y);
}
__CUCC_CX cuDoubleComplex cuCmul(cuDoubleComplex x, cuDoubleComplex y) {
    return make_cuDoubleComplex(x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x);
}
__CUCC_CX cuDoubleComplex cuCdiv(cuDoubleComplex x, cuDoubleComplex y) {
    double s = fabs(y.x) + fabs(y.y);
    double ars = x.x / s, ais = x.y / s, brs = y.x / s, bis = y.y / s;
    double q = brs * brs + bis * bis;
    return make_cuDoubleComplex((ars * brs + ais * bis) / q, (ais * brs - ars * bis) / q);
}
__CUCC_CX double cuCabs(cuDoubleComplex x) { return hypot(x.x, x.y); }

__CUCC_CX cuComplex make_cuComplex(float x, float y) { return make_cuFloatComplex(x, y); }
__CUCC_CX cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex c) {
    return make_cuDoubleComplex((double)c.x, (double)c.y);
}
__CUCC_CX cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex c) {
    return make_cuFloatComplex((float)c.x, (float)c.y);
}
__CUCC_CX cuComplex cuCfmaf(cuComplex x, cuComplex y, cuComplex d) {
    return make_cuComplex(x.x * y.x - x.y * y.y + d.x, x.x * y.y + x.y * y.x + d.y);
}
__CUCC_CX cuDoubleComplex cuCfma(cuDoubleComplex x, cuDoubleComplex y, cuDoubleComplex d) {
    return make_cuDoubleComplex(x.x * y.x - x.y * y.y + d.x, x.x * y.y + x.y * y.x + d.y);
}

#undef __CUCC_CX

#if defined(__cplusplus)
}
#endif

#endif /* CU_COMPLEX_H_ */
