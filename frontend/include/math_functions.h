/* cucc: device math in float and double.
 *
 * Declared, not defined: each C name (`sinf`, `sin`) is an extern "C" device
 * function and each C++ float overload (`sin(float)`) a device function; the
 * frontend maps them by name and parameter type to cucc-ir's known externs.
 * The host versions come from the C and C++ standard libraries; clang's CUDA
 * overloading on __host__/__device__ keeps the two apart. */
#ifndef __CUCC_MATH_FUNCTIONS_H__
#define __CUCC_MATH_FUNCTIONS_H__
#include "__cucc_defines.h"
#include <math.h>
#include <stdlib.h>
#ifdef __cplusplus
#include <cmath>
#include <cstdlib>
#endif

#define __CUCC_M1(name) \
    extern "C" __device__ float name##f(float x); \
    extern "C" __device__ double name(double x); \
    __device__ float name(float x); \
    namespace std { using ::name; }
#define __CUCC_M2(name) \
    extern "C" __device__ float name##f(float x, float y); \
    extern "C" __device__ double name(double x, double y); \
    __device__ float name(float x, float y); \
    namespace std { using ::name; }
#define __CUCC_MT(name, R, ...) \
    extern "C" __device__ R name##f(float x __VA_ARGS__); \
    extern "C" __device__ R name(double x __VA_ARGS__);

__CUCC_M1(sin) __CUCC_M1(cos) __CUCC_M1(tan)
__CUCC_M1(asin) __CUCC_M1(acos) __CUCC_M1(atan)
__CUCC_M1(sinh) __CUCC_M1(cosh) __CUCC_M1(tanh)
__CUCC_M1(asinh) __CUCC_M1(acosh) __CUCC_M1(atanh)
__CUCC_M1(exp) __CUCC_M1(exp2) __CUCC_M1(exp10) __CUCC_M1(expm1)
__CUCC_M1(log) __CUCC_M1(log2) __CUCC_M1(log10) __CUCC_M1(log1p) __CUCC_M1(logb)
__CUCC_M1(sqrt) __CUCC_M1(rsqrt) __CUCC_M1(cbrt) __CUCC_M1(rcbrt)
__CUCC_M1(fabs) __CUCC_M1(floor) __CUCC_M1(ceil) __CUCC_M1(trunc)
__CUCC_M1(round) __CUCC_M1(rint) __CUCC_M1(nearbyint)
__CUCC_M1(erf) __CUCC_M1(erfc) __CUCC_M1(erfinv) __CUCC_M1(erfcinv) __CUCC_M1(erfcx)
__CUCC_M1(lgamma) __CUCC_M1(tgamma)
__CUCC_M1(sinpi) __CUCC_M1(cospi)
__CUCC_M1(normcdf) __CUCC_M1(normcdfinv)
__CUCC_M1(j0) __CUCC_M1(j1) __CUCC_M1(y0) __CUCC_M1(y1)
__CUCC_M1(cyl_bessel_i0) __CUCC_M1(cyl_bessel_i1)

__CUCC_M2(pow) __CUCC_M2(atan2) __CUCC_M2(fmod) __CUCC_M2(hypot) __CUCC_M2(rhypot)
__CUCC_M2(copysign) __CUCC_M2(fdim) __CUCC_M2(remainder)
__CUCC_M2(fmin) __CUCC_M2(fmax) __CUCC_M2(nextafter)

/* Floating min and max are fminf/fmaxf, as NVIDIA's are: one NaN operand
   gives the other (a < b ? a : b would give b). */
#define __CUCC_FMINMAX(R, A, B, MIN, MAX) \
    __CUCC_INLINE __CUCC_HD R min(A a, B b) { return MIN((R)a, (R)b); } \
    __CUCC_INLINE __CUCC_HD R max(A a, B b) { return MAX((R)a, (R)b); }
__CUCC_FMINMAX(float, float, float, fminf, fmaxf)
__CUCC_FMINMAX(double, double, double, fmin, fmax)
__CUCC_FMINMAX(double, float, double, fmin, fmax)
__CUCC_FMINMAX(double, double, float, fmin, fmax)
#undef __CUCC_FMINMAX

__CUCC_MT(ilogb, int)
__CUCC_MT(lround, long int)
__CUCC_MT(llround, long long int)
__CUCC_MT(lrint, long int)
__CUCC_MT(llrint, long long int)

extern "C" __device__ float fmaf(float x, float y, float z);
extern "C" __device__ double fma(double x, double y, double z);
__device__ float fma(float x, float y, float z);
extern "C" __device__ float ldexpf(float x, int e);
extern "C" __device__ double ldexp(double x, int e);
__device__ float ldexp(float x, int e);
extern "C" __device__ float scalbnf(float x, int n);
extern "C" __device__ double scalbn(double x, int n);
extern "C" __device__ float scalblnf(float x, long int n);
extern "C" __device__ double scalbln(double x, long int n);
extern "C" __device__ float frexpf(float x, int *e);
extern "C" __device__ double frexp(double x, int *e);
__device__ float frexp(float x, int *e);
extern "C" __device__ float modff(float x, float *ip);
extern "C" __device__ double modf(double x, double *ip);
__device__ float modf(float x, float *ip);
extern "C" __device__ float remquof(float x, float y, int *q);
extern "C" __device__ double remquo(double x, double y, int *q);
extern "C" __device__ void sincosf(float x, float *s, float *c);
extern "C" __device__ void sincos(double x, double *s, double *c);
extern "C" __device__ void sincospif(float x, float *s, float *c);
extern "C" __device__ void sincospi(double x, double *s, double *c);
extern "C" __device__ float nanf(const char *tag);
extern "C" __device__ double nan(const char *tag);
extern "C" __device__ float jnf(int n, float x);
extern "C" __device__ double jn(int n, double x);
extern "C" __device__ float ynf(int n, float x);
extern "C" __device__ double yn(int n, double x);
extern "C" __device__ float norm3df(float a, float b, float c);
extern "C" __device__ double norm3d(double a, double b, double c);
extern "C" __device__ float rnorm3df(float a, float b, float c);
extern "C" __device__ double rnorm3d(double a, double b, double c);
extern "C" __device__ float norm4df(float a, float b, float c, float d);
extern "C" __device__ double norm4d(double a, double b, double c, double d);
extern "C" __device__ float rnorm4df(float a, float b, float c, float d);
extern "C" __device__ double rnorm4d(double a, double b, double c, double d);
extern "C" __device__ float normf(int dim, const float *a);
extern "C" __device__ double norm(int dim, const double *a);
__device__ float pow(float x, int y);
__device__ double pow(double x, int y);
namespace std {
using ::fma; using ::ldexp; using ::frexp; using ::modf; using ::pow;
using ::ilogb; using ::lround; using ::llround; using ::lrint; using ::llrint;
using ::scalbn; using ::scalbln; using ::remquo; using ::nan;
}

/* Absolute values. */
extern "C" __device__ int abs(int x);
extern "C" __device__ long int labs(long int x);
extern "C" __device__ long long int llabs(long long int x);
__device__ long int abs(long int x);
__device__ long long int abs(long long int x);
__device__ float abs(float x);
__device__ double abs(double x);
namespace std { using ::abs; using ::labs; using ::llabs; }

/* Classification. */
__device__ int __isnanf(float x);
__device__ int __isnan(double x);
__device__ int __isinff(float x);
__device__ int __isinf(double x);
__device__ int __finitef(float x);
__device__ int __finite(double x);
__device__ int __signbitf(float x);
__device__ int __signbit(double x);

/* The C99 classification macros as device functions, as CUDA declares them
 * (the host versions are libstdc++'s std:: overloads). */
__device__ bool isnan(float x);
__device__ bool isnan(double x);
__device__ bool isinf(float x);
__device__ bool isinf(double x);
__device__ bool isfinite(float x);
__device__ bool isfinite(double x);

#undef __CUCC_M1
#undef __CUCC_M2
#undef __CUCC_MT

#endif
