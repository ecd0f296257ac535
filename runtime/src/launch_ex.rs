//! `cudaLaunchKernelExC`: a launch described by a `cudaLaunchConfig_t`
//! with attributes. Attributes are validated; those without a CPU meaning
//! (clusters, priorities, memory-sync domains, access policy hints,
//! programmatic serialisation) are accepted and ignored, a cooperative
//! launch goes through `cudaLaunchCooperativeKernel`, and the programmatic
//! and completion events are recorded right after the kernel (a block
//! cannot trigger them earlier here).

use crate::errors::{api_dev, cudaError_t, non_null, CudaResult, Error};
use crate::ffi::{cudaEvent_t, cudaStream_t, Dim3, STREAM_PER_THREAD};
use std::ffi::{c_int, c_uint, c_void};

/// `cudaLaunchConfig_t`.
#[repr(C)]
pub struct cudaLaunchConfig_t {
    /// Grid extent.
    pub grid: Dim3,
    /// Block extent.
    pub block: Dim3,
    /// Dynamic shared memory in bytes.
    pub dynamic_smem: usize,
    /// The stream.
    pub stream: cudaStream_t,
    /// Attributes, `num_attrs` of them.
    pub attrs: *mut cudaLaunchAttribute,
    /// Number of attributes.
    pub num_attrs: c_uint,
}

/// `cudaLaunchAttribute`: an id and a 64-byte value.
#[repr(C)]
pub struct cudaLaunchAttribute {
    /// `cudaLaunchAttributeID`.
    pub id: c_int,
    /// Padding to 8 bytes.
    pub pad: [u8; 4],
    /// `cudaLaunchAttributeValue`, read according to `id`.
    pub val: [u64; 8],
}

/// What the attributes ask of the launch.
#[derive(Default, Debug, PartialEq)]
struct Plan {
    cooperative: bool,
    /// Events to record after the kernel.
    events: Vec<usize>,
}

fn word(v: &[u64; 8], i: usize) -> (u32, u32) {
    (v[i] as u32, (v[i] >> 32) as u32)
}

fn plan(attrs: &[cudaLaunchAttribute], grid: Dim3) -> CudaResult<Plan> {
    let mut p = Plan::default();
    for a in attrs {
        let v = &a.val;
        match a.id {
            // Ignore, access policy window, synchronisation policy,
            // priority, memory-sync domain and map, shared memory carveout,
            // NVLink scheduling, portable cluster size, shared memory mode.
            0 | 1 | 3 | 8 | 9 | 10 | 14 | 16 | 17 | 18 => {}
            2 => p.cooperative = word(v, 0).0 != 0,
            4 | 11 => {
                let (x, y) = word(v, 0);
                let z = word(v, 1).0;
                if a.id == 4 {
                    if x == 0 || y == 0 || z == 0 {
                        return Err(Error::InvalidValue);
                    }
                    if grid.x % x != 0 || grid.y % y != 0 || grid.z % z != 0 {
                        return Err(Error::InvalidConfiguration);
                    }
                }
            }
            5 => {
                if word(v, 0).0 > 2 {
                    return Err(Error::InvalidValue);
                }
            }
            6 => {}
            7 | 12 => {
                let event = v[0] as usize;
                crate::event::lookup_event(event as cudaEvent_t)?;
                p.events.push(event);
            }
            13 => {
                crate::unsupported::note("device-updatable kernel nodes");
                return Err(Error::NotSupported);
            }
            _ => return Err(Error::InvalidValue),
        }
    }
    Ok(p)
}

/// # Safety
/// `config` NULL or readable with `num_attrs` readable attributes; `args`
/// as for `cudaLaunchKernel`.
unsafe fn launch(
    config: *const cudaLaunchConfig_t,
    func: *const c_void,
    args: *mut *mut c_void,
    per_thread: bool,
) -> CudaResult {
    non_null(config)?;
    // SAFETY: checked non-null; the caller's contract.
    let c = unsafe { &*config };
    let attrs: &[cudaLaunchAttribute] = if c.num_attrs == 0 {
        &[]
    } else if c.attrs.is_null() {
        return Err(Error::InvalidValue);
    } else {
        // SAFETY: the caller's contract.
        unsafe { std::slice::from_raw_parts(c.attrs, c.num_attrs as usize) }
    };
    let p = plan(attrs, c.grid)?;
    let stream = if per_thread && c.stream.is_null() {
        STREAM_PER_THREAD as cudaStream_t
    } else {
        c.stream
    };
    // SAFETY: forwarded contract.
    let code = unsafe {
        if p.cooperative {
            crate::extras::cudaLaunchCooperativeKernel(
                func,
                c.grid,
                c.block,
                args,
                c.dynamic_smem,
                stream,
            )
        } else {
            crate::launch::cudaLaunchKernel(func, c.grid, c.block, args, c.dynamic_smem, stream)
        }
    };
    if code != 0 {
        return Err(Error::from_code(code).unwrap_or(Error::Unknown));
    }
    for e in p.events {
        let code = crate::event::cudaEventRecord(e as cudaEvent_t, stream);
        if code != 0 {
            return Err(Error::from_code(code).unwrap_or(Error::Unknown));
        }
    }
    Ok(())
}

/// Launches `func` as `config` describes.
///
/// # Safety
/// `config` NULL or readable (with its attributes); `args` one pointer per
/// kernel parameter.
#[no_mangle]
pub unsafe extern "C" fn cudaLaunchKernelExC(
    config: *const cudaLaunchConfig_t,
    func: *const c_void,
    args: *mut *mut c_void,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    api_dev(|| unsafe { launch(config, func, args, false) })
}

/// `cudaLaunchKernelExC` with per-thread default stream semantics.
///
/// # Safety
/// As [`cudaLaunchKernelExC`].
#[no_mangle]
pub unsafe extern "C" fn cudaLaunchKernelExC_ptsz(
    config: *const cudaLaunchConfig_t,
    func: *const c_void,
    args: *mut *mut c_void,
) -> cudaError_t {
    // SAFETY: forwarded contract.
    api_dev(|| unsafe { launch(config, func, args, true) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attr(id: c_int, v0: u64, v1: u64) -> cudaLaunchAttribute {
        let mut val = [0u64; 8];
        val[0] = v0;
        val[1] = v1;
        cudaLaunchAttribute {
            id,
            pad: [0; 4],
            val,
        }
    }

    #[test]
    fn layouts_match_cuda() {
        assert_eq!(std::mem::size_of::<cudaLaunchAttribute>(), 72);
        assert_eq!(std::mem::size_of::<cudaLaunchConfig_t>(), 56);
        assert_eq!(std::mem::offset_of!(cudaLaunchConfig_t, attrs), 40);
    }

    #[test]
    fn attributes_are_validated() {
        let grid = Dim3 { x: 4, y: 2, z: 1 };
        assert_eq!(
            plan(&[attr(8, 0, 0), attr(0, 0, 0)], grid),
            Ok(Plan::default())
        );
        // Cluster 2x1x1 divides the grid; 3x1x1 does not; 0 is invalid.
        assert!(plan(&[attr(4, 2 | (1 << 32), 1)], grid).is_ok());
        assert_eq!(
            plan(&[attr(4, 3 | (1 << 32), 1)], grid),
            Err(Error::InvalidConfiguration)
        );
        assert_eq!(plan(&[attr(4, 0, 1)], grid), Err(Error::InvalidValue));
        assert_eq!(
            plan(&[attr(2, 1, 0)], grid).map(|p| p.cooperative),
            Ok(true)
        );
        assert_eq!(plan(&[attr(99, 0, 0)], grid), Err(Error::InvalidValue));
        assert_eq!(plan(&[attr(13, 1, 0)], grid), Err(Error::NotSupported));
    }
}
