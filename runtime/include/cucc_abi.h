/* cucc_abi.h: the ABI between cucc-compiled device objects and cucc's CUDA
 * runtime (libcudart.so.13). docs/abi.md explains every rule. The structs'
 * one definition is Rust's (cpuify/src/abi.rs); runtime/tests/abi_header.rs
 * checks every size, offset and field name here against it.
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

/* ---- Textures (docs/abi.md, "Textures") ---------------------------------
 * A texture handle (a cudaTextureObject_t, or what a legacy reference's
 * handle slot holds) indexes `descs` of the launch's cucc_tex_api. */
enum {
  CUCC_TEX_STATE_INVALID = 0, /* the handle names nothing */
  CUCC_TEX_STATE_READY = 1,
  CUCC_TEX_STATE_UNBOUND = 2 /* legacy reference, nothing bound: reads give 0 */
};
enum { CUCC_TEX_FETCH1D = 0, CUCC_TEX_1D = 1, CUCC_TEX_2D = 2, CUCC_TEX_3D = 3 };
enum { CUCC_TEX_OUT_F32 = 0, CUCC_TEX_OUT_B32 = 1, CUCC_TEX_OUT_B16 = 2, CUCC_TEX_OUT_B8 = 3 };
#define CUCC_TEX_RAW_NONE 0xff

/* One texture (80 bytes). Texel (x, y, z) is at
 * data + z*slice_pitch + y*pitch + x*texel_size. */
typedef struct cucc_tex_desc {
  const char *data;
  uint64_t width, height, depth; /* texels, rows (1 for 1D), slices (1 for 1D/2D) */
  uint64_t pitch, slice_pitch;   /* bytes */
  uint32_t texel_size;           /* bytes */
  uint8_t state;                 /* CUCC_TEX_STATE_* */
  uint8_t raw_kind;              /* CUCC_TEX_OUT_* for which a fetch1d is a plain
                                    copy of the texel's first channels, zeros
                                    outside [0, width); or CUCC_TEX_RAW_NONE */
  uint8_t channels;              /* 1, 2 or 4 */
  uint8_t channel_bits;          /* 8, 16 or 32 */
  uint8_t format;                /* cudaChannelFormatKind: 0 signed, 1 unsigned, 2 float */
  uint8_t read_normalized;       /* cudaReadModeNormalizedFloat */
  uint8_t filter;                /* cudaFilterModeLinear */
  uint8_t normalized_coords;
  uint8_t address[3];            /* cudaTextureAddressMode per axis */
  uint8_t resource;              /* cudaResourceType: 0 array, 2 linear, 3 pitch 2D */
  float border[4];
} cucc_tex_desc;

/* A launch's textures: immutable while the launch runs. */
typedef struct cucc_tex_api {
  uint32_t version;              /* 1 */
  uint32_t reserved;
  uint64_t count;                /* handles >= count are invalid */
  const cucc_tex_desc *descs;    /* indexed by handle; descs[0] is invalid */
  /* Samples a descriptor whose state is not INVALID; writes four elements
   * of out_kind to out (16 bytes). */
  void (*fetch)(const cucc_tex_desc *desc, int kind, int32_t icoord, float x,
                float y, float z, int out_kind, void *out);
} cucc_tex_api;

/* What a kernel entry learns about its launch. */
typedef struct cucc_launch {
  uint32_t grid[3];                 /* gridDim */
  uint32_t block[3];                /* blockDim */
  uint64_t dynamic_shared;          /* bytes of extern __shared__ */
  const struct cucc_tex_api *tex;   /* textures; NULL if the program has none */
  uint32_t thread_ranges;           /* 1: block_begin/block_end are global linear
                                       thread ids (only for entries flagged
                                       CUCC_KERNEL_THREAD_RANGES) */
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

/* cucc_kernel_info.flags: the entry also accepts ranges of global linear
 * thread ids, block_id * threads_per_block + (tx + ty*block[0] +
 * tz*block[0]*block[1]), which may start and end inside a block; the runtime
 * passes them (setting launch->thread_ranges) when the launch's thread count
 * fits in 32 bits, block ranges otherwise. */
#define CUCC_KERNEL_THREAD_RANGES 1u

typedef struct cucc_kernel_info {
  const char *device_name;     /* mangled name, as __cudaRegisterFunction's deviceName */
  cucc_kernel_fn entry;
  uint64_t static_shared;      /* bytes of per-block scratch the entry needs */
  uint32_t num_params;
  uint32_t flags;              /* CUCC_KERNEL_*; 0 in objects older than the field */
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

/* A __managed__ variable of a device object: kernels load its address from
 * *slot, which initially points at the object's storage (holding the initial
 * value). Once the host object has registered the same name, the runtime
 * copies the initial value into the host's variable and points *slot at it,
 * so host code and kernels share one storage. */
typedef struct cucc_managed_info {
  const char *device_name;     /* as __cudaRegisterVar's deviceName */
  unsigned char **slot;
  uint64_t size;               /* bytes */
} cucc_managed_info;

void __cucc_register_managed(const uint8_t module_id[16],
                             const cucc_managed_info *vars, size_t n);

/* A legacy texture reference of a device object: the runtime writes its
 * handle to *handle (the object's `tex.ref` ops read it). */
typedef struct cucc_texref_info {
  const char *device_name;     /* as __cudaRegisterTexture's deviceName */
  uint64_t *handle;
} cucc_texref_info;
void __cucc_register_textures(const uint8_t module_id[16],
                              const cucc_texref_info *refs, size_t n);

/* Kernel-side failure reporting. Both print a message, record a sticky error
 * (cudaErrorLaunchFailure / cudaErrorAssert) and stop the launch from starting
 * further block ranges. They return: the caller returns from its entry. */
void __cucc_trap(const char *msg);
void __cucc_assert_trap(const char *msg);
void __cucc_assert_fail(const char *expr, const char *file, unsigned line,
                        const char *func);
/* 1 if each of the n pointers lies in a live cudaMalloc/cudaMallocManaged
 * allocation and no two in the same one (the IR's alloc.distinct). */
uint8_t __cucc_alloc_distinct(uint32_t n, const void *const *ptrs);
/* 1 once the running launch has trapped; entries may poll it between blocks. */
int __cucc_launch_aborted(void);

#ifdef __cplusplus
}
#endif

#endif /* CUCC_ABI_H */
