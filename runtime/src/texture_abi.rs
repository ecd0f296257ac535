//! The texture part of the device-object ABI (`cucc_abi.h`,
//! `docs/abi.md`): the per-launch `cucc_tex_api` (and the [`Snapshot`] that
//! owns it), the texture descriptors it indexes by handle, and the
//! registration of legacy texture references by device objects.

use std::ffi::c_void;
use std::sync::Arc;

/// `cucc_tex_desc.state` values.
pub use cucc_cpuify::abi::{
    TEX_STATE_INVALID as STATE_INVALID, TEX_STATE_READY as STATE_READY,
    TEX_STATE_UNBOUND as STATE_UNBOUND,
};

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

/// The descriptors, the per-launch view and the slow-path fetch as the
/// ABI defines them (`cucc_cpuify::abi`, checked against the C).
pub use cucc_cpuify::abi::{TexApi, TexDesc, TexFetchFn, TEX_RAW_NONE as RAW_NONE};

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
pub use cucc_cpuify::abi::TexRefInfo;

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
        assert_eq!(TexDesc::INVALID.address, [ADDRESS_CLAMP; 3]);
        assert_eq!(TexDesc::INVALID.state, STATE_INVALID);
    }
}
