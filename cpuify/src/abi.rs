//! The kernel ABI between emitted C and the runtime (docs/abi.md), defined
//! once: the `#[repr(C)]` structs here are what the runtime reads and
//! writes, and every C declaration of them — the emitted prelude and
//! registration tables ([`C_LAUNCH_DECLS`], [`C_REGISTRATION_DECLS`]), the
//! checked-build declarations of `emit_c::checks`, and
//! `runtime/include/cucc_abi.h` — is checked against them by tests that
//! compile [`layout_asserts_c`] with the C compiler.
//!
//! It lives in cpuify because cpuify writes the C and both the runtime
//! and the driver already depend on it; the IR crate knows nothing of C.

use std::ffi::{c_char, c_void};
use std::mem::{align_of, offset_of, size_of};

/// Where a struct's field lies, as C must see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldLayout {
    /// The field's name in C.
    pub c_name: &'static str,
    /// Byte offset.
    pub offset: usize,
    /// Bytes.
    pub size: usize,
}

/// The layout of one ABI struct, taken from its Rust definition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StructLayout {
    /// The C typedef name (`cucc_launch`).
    pub c_name: &'static str,
    /// `sizeof`.
    pub size: usize,
    /// `_Alignof`.
    pub align: usize,
    /// Every field, in declaration order.
    pub fields: &'static [FieldLayout],
}

/// Defines a `#[repr(C)]` struct and its [`StructLayout`] (`LAYOUT`) from
/// one field list, so the layout a test checks C against cannot miss a
/// field. A field whose C name is a Rust keyword gives it with `as`.
macro_rules! abi_struct {
    (
        $(#[$meta:meta])*
        pub struct $name:ident as $c_name:literal {
            $(
                $(#[$fmeta:meta])*
                pub $field:ident $(as $c_field:literal)? : $ty:ty,
            )*
        }
    ) => {
        $(#[$meta])*
        #[repr(C)]
        pub struct $name {
            $(
                $(#[$fmeta])*
                pub $field: $ty,
            )*
        }

        impl $name {
            /// The layout C declarations of this struct must have.
            pub const LAYOUT: StructLayout = StructLayout {
                c_name: $c_name,
                size: size_of::<$name>(),
                align: align_of::<$name>(),
                fields: &[$(FieldLayout {
                    c_name: abi_struct!(@name $field $($c_field)?),
                    offset: offset_of!($name, $field),
                    size: size_of::<$ty>(),
                }),*],
            };
        }
    };
    (@name $field:ident) => { stringify!($field) };
    (@name $field:ident $c_field:literal) => { $c_field };
}

/// The C of [`TexDesc`], [`TexApi`] and [`Launch`] as the prelude of every
/// emitted file declares them (a macro, so `emit_c`'s prelude can `concat!`
/// it into one literal).
macro_rules! c_launch_decls {
    () => {
        r#"#ifndef CUCC_LAUNCH_DEFINED
#define CUCC_LAUNCH_DEFINED
typedef struct cucc_tex_desc {
  const char *data;
  uint64_t width, height, depth, pitch, slice_pitch;
  uint32_t texel_size;
  uint8_t state, raw_kind, channels, channel_bits, format, read_normalized, filter,
      normalized_coords, address[3], resource;
  float border[4];
} cucc_tex_desc;
typedef struct cucc_tex_api {
  uint32_t version, reserved;
  uint64_t count;
  const cucc_tex_desc *descs;
  void (*fetch)(const cucc_tex_desc *desc, int kind, int32_t icoord, float x, float y,
                float z, int out_kind, void *out);
} cucc_tex_api;
typedef struct cucc_launch {
  uint32_t grid[3];
  uint32_t block[3];
  uint64_t dynamic_shared;
  const cucc_tex_api *tex;
  uint32_t thread_ranges;
} cucc_launch;
#endif
"#
    };
}
pub(crate) use c_launch_decls;

/// The launch structs' C declarations in every emitted file's prelude.
pub const C_LAUNCH_DECLS: &str = c_launch_decls!();

/// The C a device object's registration tables are declared with (after
/// the prelude): [`KernelInfo`], [`VarInfo`] and the two registrations.
pub const C_REGISTRATION_DECLS: &str = "\
typedef void (*cucc_kernel_fn)(void **, const cucc_launch *, uint32_t, uint32_t, void *);
typedef struct { const char *device_name; cucc_kernel_fn entry; uint64_t static_shared; uint32_t num_params; uint32_t flags; const uint32_t *param_sizes; } cucc_kernel_info;
typedef struct { const char *device_name; void *storage; uint64_t size; } cucc_var_info;
void __cucc_register_module(const uint8_t id[16], const cucc_kernel_info *kernels, size_t n);
void __cucc_register_variables(const uint8_t id[16], const cucc_var_info *vars, size_t n);
";

/// The C of [`TexRefInfo`] and its registration, emitted after
/// [`C_REGISTRATION_DECLS`].
pub const C_TEXREF_DECLS: &str = "\
typedef struct { const char *device_name; uint64_t *handle; } cucc_texref_info;
void __cucc_register_textures(const uint8_t id[16], const cucc_texref_info *refs, size_t n);
";

/// The C of [`ManagedInfo`] and its registration, emitted only by objects
/// with `__managed__` variables.
pub const C_MANAGED_DECLS: &str = "\
typedef struct { const char *device_name; unsigned char **slot; uint64_t size; } cucc_managed_info;
void __cucc_register_managed(const uint8_t id[16], const cucc_managed_info *vars, size_t n);
";

abi_struct! {
    /// Launch description handed to a kernel entry (`cucc_launch`).
    #[derive(Clone, Copy, Debug)]
    pub struct Launch as "cucc_launch" {
        /// Grid extents in blocks.
        pub grid: [u32; 3],
        /// Block extents in threads.
        pub block: [u32; 3],
        /// Bytes of `extern __shared__` memory, after the static shared bytes.
        pub dynamic_shared: u64,
        /// The launch's textures (`const cucc_tex_api *`, a [`TexApi`]);
        /// NULL when the program has none.
        pub tex: *const c_void,
        /// 1 when the entry's range is of global linear thread ids (only
        /// for kernels registered with [`KERNEL_THREAD_RANGES`]), 2 when it
        /// is of outer-loop indices ([`KERNEL_OUTER_RANGES`]), 0 for blocks.
        pub thread_ranges: u32,
    }
}

/// A kernel entry (`cucc_kernel_fn`): runs blocks `[block_begin,
/// block_end)` (linear ids `x + y*gx + z*gx*gy`) with `scratch` as shared
/// memory.
pub type KernelFn = unsafe extern "C" fn(
    args: *mut *mut c_void,
    launch: *const Launch,
    block_begin: u32,
    block_end: u32,
    scratch: *mut c_void,
);

/// [`KernelInfo::flags`] bit: the entry accepts ranges of global linear
/// thread ids (`block * threads_per_block + linear thread id in the block`).
pub const KERNEL_THREAD_RANGES: u32 = 1;

/// [`KernelInfo::flags`] bit: the entry (an N-D collapsed launch) accepts
/// ranges of the linear index `g_outer * extent_middle + g_middle` of its
/// two outer global-coordinate loops, with `launch.thread_ranges == 2`. The
/// outer loop's launch dimension is in bits 2-3, the middle one's in 4-5.
pub const KERNEL_OUTER_RANGES: u32 = 2;

abi_struct! {
    /// One kernel of a device object (`cucc_kernel_info`).
    #[derive(Clone, Copy, Debug)]
    pub struct KernelInfo as "cucc_kernel_info" {
        /// Mangled name, as `__cudaRegisterFunction`'s `deviceName`.
        pub device_name: *const c_char,
        /// The entry.
        pub entry: Option<KernelFn>,
        /// Bytes of per-block scratch the entry needs for static shared memory.
        pub static_shared: u64,
        /// Number of kernel parameters.
        pub num_params: u32,
        /// `KERNEL_*` bits (in what was padding: objects older than the
        /// field have 0 there).
        pub flags: u32,
        /// Size in bytes of each parameter.
        pub param_sizes: *const u32,
    }
}

abi_struct! {
    /// One `__device__`/`__constant__`/`__managed__` variable of a device
    /// object (`cucc_var_info`).
    #[derive(Clone, Copy, Debug)]
    pub struct VarInfo as "cucc_var_info" {
        /// Mangled name, as `__cudaRegisterVar`'s `deviceName`.
        pub device_name: *const c_char,
        /// The device object's storage for the variable.
        pub storage: *mut c_void,
        /// Size of the storage in bytes.
        pub size: u64,
    }
}

abi_struct! {
    /// One `__managed__` variable of a device object (`cucc_managed_info`):
    /// kernels reach it through `*slot`, which the runtime points at the
    /// host program's copy so host and device share one storage.
    #[derive(Clone, Copy, Debug)]
    pub struct ManagedInfo as "cucc_managed_info" {
        /// Mangled name, as `__cudaRegisterVar`'s `deviceName`.
        pub device_name: *const c_char,
        /// The pointer kernels load the variable's address from; it
        /// initially points at the device object's storage (holding the
        /// initial value).
        pub slot: *mut *mut u8,
        /// Size of the variable in bytes.
        pub size: u64,
    }
}

abi_struct! {
    /// One legacy texture reference of a device object (`cucc_texref_info`).
    #[derive(Clone, Copy, Debug)]
    pub struct TexRefInfo as "cucc_texref_info" {
        /// The reference's device name, as `__cudaRegisterTexture`'s
        /// `deviceName`.
        pub device_name: *const c_char,
        /// Where the runtime writes the reference's handle (what `tex.ref`
        /// reads).
        pub handle: *mut u64,
    }
}

/// [`TexDesc::state`]: the handle names nothing (free slot, handle 0).
pub const TEX_STATE_INVALID: u8 = 0;
/// [`TexDesc::state`]: the texture is ready to read.
pub const TEX_STATE_READY: u8 = 1;
/// [`TexDesc::state`]: a legacy texture reference with nothing bound:
/// reads give zeros.
pub const TEX_STATE_UNBOUND: u8 = 2;
/// [`TexDesc::raw_kind`] when no result kind is a plain copy.
pub const TEX_RAW_NONE: u8 = 0xff;

abi_struct! {
    /// One texture as kernels see it (`cucc_tex_desc`, 80 bytes).
    ///
    /// Texel `(x, y, z)` lives at `data + z*slice_pitch + y*pitch +
    /// x*texel_size`.
    #[derive(Clone, Copy, Debug)]
    pub struct TexDesc as "cucc_tex_desc" {
        /// Texel (0, 0, 0).
        pub data: *const u8,
        /// Texels in x.
        pub width: u64,
        /// Rows (1 for 1D textures).
        pub height: u64,
        /// Slices (1 for 1D and 2D textures).
        pub depth: u64,
        /// Bytes between rows.
        pub pitch: u64,
        /// Bytes between slices.
        pub slice_pitch: u64,
        /// Bytes per texel.
        pub texel_size: u32,
        /// `TEX_STATE_*`.
        pub state: u8,
        /// The result kind (`out_kind`) for which a `fetch1d` is a plain
        /// copy of the texel's first channels with zeros outside `[0,
        /// width)` (linear memory read as stored), or [`TEX_RAW_NONE`].
        pub raw_kind: u8,
        /// Channels per texel: 1, 2 or 4.
        pub channels: u8,
        /// Bits per channel: 8, 16 or 32.
        pub channel_bits: u8,
        /// `cudaChannelFormatKind`: 0 signed, 1 unsigned, 2 float.
        pub format: u8,
        /// 1 for `cudaReadModeNormalizedFloat`.
        pub read_normalized: u8,
        /// 1 for `cudaFilterModeLinear`.
        pub filter: u8,
        /// 1 for normalized coordinates.
        pub normalized_coords: u8,
        /// `cudaTextureAddressMode` per axis.
        pub address: [u8; 3],
        /// `cudaResourceType`: 0 array, 2 linear, 3 pitch 2D.
        pub resource: u8,
        /// Border colour.
        pub border: [f32; 4],
    }
}

// SAFETY: a descriptor is plain data; `data` is only read, by kernels,
// while the launch that holds it runs.
unsafe impl Send for TexDesc {}
// SAFETY: as above.
unsafe impl Sync for TexDesc {}

impl TexDesc {
    /// The descriptor of a handle that names nothing (address mode
    /// `cudaAddressModeClamp`, 1).
    pub const INVALID: TexDesc = TexDesc {
        data: std::ptr::null(),
        width: 0,
        height: 0,
        depth: 0,
        pitch: 0,
        slice_pitch: 0,
        texel_size: 0,
        state: TEX_STATE_INVALID,
        raw_kind: TEX_RAW_NONE,
        channels: 0,
        channel_bits: 0,
        format: 0,
        read_normalized: 0,
        filter: 0,
        normalized_coords: 0,
        address: [1; 3],
        resource: 0,
        border: [0.0; 4],
    };
}

/// The slow-path fetch (`cucc_tex_api.fetch`): samples `desc` and writes
/// four result elements of `out_kind` to `out`.
pub type TexFetchFn = unsafe extern "C" fn(
    desc: *const TexDesc,
    kind: i32,
    icoord: i32,
    x: f32,
    y: f32,
    z: f32,
    out_kind: i32,
    out: *mut c_void,
);

abi_struct! {
    /// What a launch's kernels read textures through (`cucc_tex_api`).
    #[derive(Debug)]
    pub struct TexApi as "cucc_tex_api" {
        /// ABI version of this struct: 1.
        pub version: u32,
        /// Reserved, 0.
        pub reserved: u32,
        /// Entries of `descs`; handles `>= count` are invalid.
        pub count: u64,
        /// Descriptors indexed by handle (texture objects and legacy
        /// references share the handle space; handle 0 is invalid).
        pub descs: *const TexDesc,
        /// Samples any valid descriptor.
        pub fetch: TexFetchFn,
    }
}

/// [`SanSite::flags`]: a write.
pub const SITE_WRITE: u32 = 1;
/// [`SanSite::flags`]: an atomic.
pub const SITE_ATOMIC: u32 = 2;
/// [`SanSite::flags`]: known to address shared memory.
pub const SITE_SHARED: u32 = 4;

abi_struct! {
    /// An access site of a checked build (`cucc_san_site`, docs/sanitize.md).
    #[derive(Clone, Copy, Debug)]
    pub struct SanSite as "cucc_san_site" {
        /// The kernel's device name.
        pub kernel: *const c_char,
        /// `file:line`, or "".
        pub place as "where": *const c_char,
        /// The shared variable or global accessed, or "".
        pub what: *const c_char,
        /// Bytes of a typed access, 0 for memcpy/memset.
        pub size: u32,
        /// `SITE_*` bits.
        pub flags: u32,
    }
}

abi_struct! {
    /// One racecheck shadow cell (`cucc_rc_cell`): the last writer and two
    /// readers of a shared byte in the current phase.
    #[derive(Clone, Copy, Debug)]
    pub struct RcCell as "cucc_rc_cell" {
        /// The phase the cell's accesses belong to.
        pub epoch: u32,
        /// Writer (`thread | segment << 11`), or `u32::MAX`.
        pub w: u32,
        /// First reader, or `u32::MAX`.
        pub r1: u32,
        /// Second reader, or `u32::MAX`.
        pub r2: u32,
        /// The writer's site.
        pub ws: *const SanSite,
        /// A reader's site.
        pub rs: *const SanSite,
    }
}

abi_struct! {
    /// The racecheck state a checked entry holds (`cucc_rc_state`): its
    /// worker's shadow of the shared window.
    #[derive(Debug)]
    pub struct RcState as "cucc_rc_state" {
        /// The current phase.
        pub epoch: u32,
        /// The lane-loop run within the phase.
        pub segment: u32,
        /// One cell per shared byte.
        pub cells: *mut RcCell,
        /// Address of the shared window.
        pub base: usize,
        /// Bytes of the shared window.
        pub size: u64,
    }
}

/// Every struct of the ABI a device object and the runtime both see.
pub const LAYOUTS: &[StructLayout] = &[
    Launch::LAYOUT,
    KernelInfo::LAYOUT,
    VarInfo::LAYOUT,
    ManagedInfo::LAYOUT,
    TexRefInfo::LAYOUT,
    TexDesc::LAYOUT,
    TexApi::LAYOUT,
    SanSite::LAYOUT,
    RcCell::LAYOUT,
    RcState::LAYOUT,
];

/// C static assertions that the declarations in scope give each of
/// `structs` the size, alignment, field names, offsets and field sizes of
/// its Rust definition; append to C that declares them (needs
/// `<stddef.h>`) and compile: a mismatch is a compile error naming the
/// struct and field.
pub fn layout_asserts_c(structs: &[StructLayout]) -> String {
    use std::fmt::Write;
    let mut c = String::from("#include <stddef.h>\n");
    for s in structs {
        let n = s.c_name;
        let _ = writeln!(
            c,
            "_Static_assert(sizeof({n}) == {}, \"sizeof({n}) != {} (Rust)\");",
            s.size, s.size
        );
        let _ = writeln!(
            c,
            "_Static_assert(_Alignof({n}) == {}, \"_Alignof({n}) != {} (Rust)\");",
            s.align, s.align
        );
        for f in s.fields {
            let fname = f.c_name;
            let _ = writeln!(
                c,
                "_Static_assert(offsetof({n}, {fname}) == {}, \"offsetof({n}, {fname}) != {} (Rust)\");",
                f.offset, f.offset
            );
            let _ = writeln!(
                c,
                "_Static_assert(sizeof((({n} *)0)->{fname}) == {}, \"sizeof {n}.{fname} != {} (Rust)\");",
                f.size, f.size
            );
        }
    }
    c
}

/// The layouts of `LAYOUTS` whose C names are in `names`, in that order
/// (`None` for a name the ABI does not define).
pub fn layouts_named(names: &[&str]) -> Option<Vec<StructLayout>> {
    names
        .iter()
        .map(|n| LAYOUTS.iter().find(|s| s.c_name == *n).copied())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_key_offsets() {
        assert_eq!(size_of::<Launch>(), 48);
        assert_eq!(offset_of!(Launch, tex), 32);
        assert_eq!(size_of::<TexDesc>(), 80);
        assert_eq!(offset_of!(TexDesc, texel_size), 48);
        assert_eq!(offset_of!(TexDesc, address), 60);
        assert_eq!(offset_of!(TexDesc, border), 64);
        assert_eq!(size_of::<TexApi>(), 32);
        assert_eq!(offset_of!(TexApi, fetch), 24);
        assert_eq!(size_of::<KernelInfo>(), 40);
        assert_eq!(offset_of!(KernelInfo, flags), 28);
        assert_eq!(size_of::<SanSite>(), 32);
        assert_eq!(size_of::<RcCell>(), 32);
        assert_eq!(size_of::<RcState>(), 32);
    }

    #[test]
    fn layouts_list_every_field_under_its_c_name() {
        assert_eq!(Launch::LAYOUT.fields.len(), 5);
        assert_eq!(TexDesc::LAYOUT.fields.len(), 18);
        let site: Vec<_> = SanSite::LAYOUT.fields.iter().map(|f| f.c_name).collect();
        assert_eq!(site, ["kernel", "where", "what", "size", "flags"]);
        let names: Vec<_> = LAYOUTS.iter().map(|s| s.c_name).collect();
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len());
        assert!(layouts_named(&["cucc_launch", "nothing"]).is_none());
    }

    #[test]
    fn asserts_name_each_field() {
        let c = layout_asserts_c(&[Launch::LAYOUT]);
        assert!(c.contains("offsetof(cucc_launch, thread_ranges) == 40"));
        assert!(c.contains("sizeof(((cucc_launch *)0)->grid) == 12"));
    }
}
