/* cucc_abi.h: the ABI between cucc-compiled device objects and cucc's CUDA
 * runtime (libcudart.so.13). docs/abi.md explains every rule; this header is
 * the declaration both sides compile against.
 *
 * ABI version 1.
 */
#ifndef CUCC_ABI_H
#define CUCC_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CUCC_ABI_VERSION 1

/* ---- Module blob (the "fat binary" of a cucc host object) ----------------
 * The host object's __cudaRegisterFatBinary wrapper points `data` at:
 *   offset  0: char     magic[8]   = "CUCCMOD1"
 *   offset  8: uint8_t  module_id[16]
 *   offset 24: uint32_t version    = 1           (little endian)
 *   offset 28: uint32_t header_size = 40
 *   offset 32: uint64_t total_size  (>= 40; bytes after the header are
 *                                    reserved for later sections)
 */
#define CUCC_BLOB_MAGIC "CUCCMOD1"
#define CUCC_BLOB_HEADER_SIZE 40
#define CUCC_MODULE_ID_SIZE 16

/* Texture resolver; defined when textures are supported. */
struct cucc_tex_api;

/* What a kernel entry learns about its launch. */
typedef struct cucc_launch {
  uint32_t grid[3];                 /* gridDim */
  uint32_t block[3];                /* blockDim */
  uint64_t dynamic_shared;          /* bytes of extern __shared__ */
  const struct cucc_tex_api *tex;   /* texture resolver; NULL for now */
} cucc_launch;

/* Runs blocks with linear ids [block_begin, block_end), where
 * linear = x + y*grid[0] + z*grid[0]*grid[1]. `args[i]` points to the value of
 * parameter i (a copy the runtime owns until the launch completes). `scratch`
 * is this call's shared memory: at least static_shared + dynamic_shared bytes,
 * 128-byte aligned, contents unspecified; static __shared__ variables live at
 * [0, static_shared), extern __shared__ starts at static_shared rounded up to
 * 16. The same buffer serves every block of the range, one after the other.
 * Entries may run concurrently on several threads, each with its own scratch. */
typedef void (*cucc_kernel_fn)(void **args, const cucc_launch *launch,
                               uint32_t block_begin, uint32_t block_end,
                               void *scratch);

typedef struct cucc_kernel_info {
  const char *device_name;     /* mangled name, as __cudaRegisterFunction's deviceName */
  cucc_kernel_fn entry;
  uint64_t static_shared;      /* bytes of per-block scratch the entry needs */
  uint32_t num_params;
  const uint32_t *param_sizes; /* num_params sizes in bytes */
} cucc_kernel_info;

typedef struct cucc_var_info {
  const char *device_name;     /* mangled name, as __cudaRegisterVar's deviceName */
  void *storage;               /* the device object's storage for the variable */
  uint64_t size;               /* bytes */
} cucc_var_info;

/* Called by a device object's constructor. Both may be called in any order
 * relative to the host object's registration, and more than once per module
 * (tables merge). Strings, tables and storage must stay valid while the
 * object is loaded. */
void __cucc_register_module(const uint8_t module_id[16],
                            const cucc_kernel_info *kernels, size_t n);
void __cucc_register_variables(const uint8_t module_id[16],
                               const cucc_var_info *vars, size_t n);

/* Kernel-side failure reporting. Both print a message, record a sticky error
 * (cudaErrorLaunchFailure / cudaErrorAssert) and stop the launch from starting
 * further block ranges. They return: the caller returns from its entry. */
void __cucc_trap(const char *msg);
void __cucc_assert_fail(const char *expr, const char *file, unsigned line,
                        const char *func);
/* 1 once the running launch has trapped; entries may poll it between blocks. */
int __cucc_launch_aborted(void);

#ifdef __cplusplus
}
#endif

#endif /* CUCC_ABI_H */
