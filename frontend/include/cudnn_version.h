/* cucc: the cuDNN version this library implements (cuDNN 9's legacy API,
 * computed on the CPU by libcudnn.so.9 from cucc's cudnn/ crate). */
#ifndef CUDNN_VERSION_H_
#define CUDNN_VERSION_H_

#define CUDNN_MAJOR 9
#define CUDNN_MINOR 6
#define CUDNN_PATCHLEVEL 0

#define CUDNN_VERSION (CUDNN_MAJOR * 10000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)

#endif
