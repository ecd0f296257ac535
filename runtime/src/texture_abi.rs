//! The texture part of the device-object ABI (`cucc_abi.h`,
//! `docs/abi.md`): the per-launch `cucc_tex_api` (and the [`Snapshot`] that
//! owns it), the texture descriptors it indexes by handle, and the
//! registration of legacy texture references by device objects.

use std::ffi::{c_char, c_void};
use std::sync::Arc;

/// `cucc_tex_desc.state`: the handle names nothing (free slot, handle 0).
pub const STATE_INVALID: u8 = 0;
/// The texture is ready to read.
pub const STATE_READY: u8 = 1;
/// A legacy texture reference with nothing bound: reads give zeros.
pub const STATE_UNBOUND: u8 = 2;

/// `cudaResourceTypeArray`.
pub const RESOURCE_ARRAY: u8 = 0;
/// `cudaResourceTypeLinear`.
pub const RESOURCE_LINEAR: u8 = 2;
/// `cudaResourceTypePitch2D`.
pub const RESOURCE_PITCH2D: u8 = 3;

/// `cudaAddressModeWrap`.
pub const ADDRESS_WRAP: u8 = 0;
/// `cudaAddressModeClamp`.
pub const ADDRESS_CLAMP: u8 = 1;
/// `cudaAddressModeMirror`.
pub const ADDRESS_MIRROR: u8 = 2;
/// `cudaAddressModeBorder`.
pub const ADDRESS_BORDER: u8 = 3;

/// `cucc_tex_desc.raw_kind` when no result kind is a plain copy.
pub const RAW_NONE: u8 = 0xff;

/// One texture as kernels see it (`cucc_tex_desc`, 80 bytes).
///
/// Texel `(x, y, z)` lives at `data + z*slice_pitch + y*pitch + x*texel_size`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct TexDesc {
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
    /// `STATE_*`.
    pub state: u8,
    /// The result kind (`OUT_*` of [`crate::sample`]) for which a `fetch1d`
    /// is a plain copy of the texel's first channels with zeros outside
    /// `[0, width)` (linear memory read as stored), or [`RAW_NONE`].
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
    /// `RESOURCE_*`.
    pub resource: u8,
    /// Border colour.
    pub border: [f32; 4],
}

// SAFETY: a descriptor is plain data; `data` is only read, by kernels, while
// the launch that holds it runs.
unsafe impl Send for TexDesc {}
// SAFETY: as above.
unsafe impl Sync for TexDesc {}

impl TexDesc {
    /// The descriptor of a handle that names nothing.
    pub const INVALID: TexDesc = TexDesc {
        data: std::ptr::null(),
        width: 0,
        height: 0,
        depth: 0,
        pitch: 0,
        slice_pitch: 0,
        texel_size: 0,
        state: STATE_INVALID,
        raw_kind: RAW_NONE,
        channels: 0,
        channel_bits: 0,
        format: 0,
        read_normalized: 0,
        filter: 0,
        normalized_coords: 0,
        address: [ADDRESS_CLAMP; 3],
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

/// What a launch's kernels read textures through (`cucc_tex_api`).
#[repr(C)]
#[derive(Debug)]
pub struct TexApi {
    /// ABI version of this struct: 1.
    pub version: u32,
    /// Reserved, 0.
    pub reserved: u32,
    /// Entries of `descs`; handles `>= count` are invalid.
    pub count: u64,
    /// Descriptors indexed by handle (texture objects and legacy references
    /// share the handle space; handle 0 is invalid).
    pub descs: *const TexDesc,
    /// Samples any valid descriptor.
    pub fetch: TexFetchFn,
}

/// The view a launch hands its kernels, shared by every launch until the
/// texture table changes: the `cucc_tex_api`, the descriptors it points to,
/// and owners of the memory they read (arrays), all kept alive until the
/// last launch holding it completes.
pub struct Snapshot {
    api: TexApi,
    _descs: Vec<TexDesc>,
    _owners: Vec<Arc<dyn Send + Sync>>,
}

// SAFETY: the snapshot is immutable; its pointers reference its own vector
// and memory its owners (or the program) keep valid while kernels read it.
unsafe impl Send for Snapshot {}
// SAFETY: as above.
unsafe impl Sync for Snapshot {}

impl Snapshot {
    /// A view of `descs`, sampled by `fetch`, keeping `owners` alive.
    pub fn new(descs: Vec<TexDesc>, owners: Vec<Arc<dyn Send + Sync>>, fetch: TexFetchFn) -> Self {
        Snapshot {
            api: TexApi {
                version: 1,
                reserved: 0,
                count: descs.len() as u64,
                descs: descs.as_ptr(),
                fetch,
            },
            _descs: descs,
            _owners: owners,
        }
    }

    /// The `cucc_tex_api` to hand to kernels (valid while `self` lives).
    pub fn api(&self) -> *const c_void {
        &self.api as *const TexApi as *const c_void
    }
}

/// One legacy texture reference of a device object (`cucc_texref_info`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct TexRefInfo {
    /// The reference's device name, as `__cudaRegisterTexture`'s `deviceName`.
    pub device_name: *const c_char,
    /// Where the runtime writes the reference's handle (what `tex.ref` reads).
    pub handle: *mut u64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{offset_of, size_of};

    /// Offsets `cucc_abi.h` and the emitted C's prelude rely on.
    #[test]
    fn layouts() {
        assert_eq!(size_of::<TexDesc>(), 80);
        assert_eq!(offset_of!(TexDesc, texel_size), 48);
        assert_eq!(offset_of!(TexDesc, state), 52);
        assert_eq!(offset_of!(TexDesc, raw_kind), 53);
        assert_eq!(offset_of!(TexDesc, address), 60);
        assert_eq!(offset_of!(TexDesc, resource), 63);
        assert_eq!(offset_of!(TexDesc, border), 64);
        assert_eq!(size_of::<TexApi>(), 32);
        assert_eq!(offset_of!(TexApi, fetch), 24);
    }
}
