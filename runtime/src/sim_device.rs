//! Plumbing the simulated devices share (`crate::snitch`, `crate::racer`):
//! their properties' common part, reading a launch's argument values, and
//! writing back only the bytes a simulated kernel changed.

use std::ffi::{c_char, c_int, c_void};
use std::sync::Arc;

use crate::errors::{CudaResult, Error};
use crate::ffi::{cudaDeviceProp, Dim3};
use crate::kernel::KernelImpl;
use crate::kernel_ir::Source;
use crate::registry::{Function, ModuleId};
use crate::stream::Stream;

/// A validated launch as a simulated device takes it: grid, block, the
/// argument pointers (one per kernel parameter, each to a readable value of
/// the parameter's size: CUDA's contract), dynamic shared bytes, stream.
#[derive(Clone, Copy)]
pub struct SimLaunch<'a>(
    pub Dim3,
    pub Dim3,
    pub *mut *mut c_void,
    pub usize,
    pub &'a Arc<Stream>,
);

/// What a queued run on a simulated device reports by: the kernel's names
/// and, for the profile, its size.
pub struct RunInfo {
    /// The demangled name, for messages.
    pub name: String,
    /// The symbol, for the profile.
    pub mangled: String,
    /// Whether the profile was on at launch.
    pub profiled: bool,
    /// Blocks in the grid.
    pub blocks: u64,
    /// Threads in the grid.
    pub threads: u64,
}

impl RunInfo {
    /// The record of launching `k` (demangled: `name`) as `grid` x `block`.
    pub fn new(name: String, k: &KernelImpl, grid: Dim3, block: Dim3) -> Self {
        RunInfo {
            name,
            mangled: k.name.clone(),
            profiled: crate::profile::enabled(),
            blocks: grid.count(),
            threads: grid.count().saturating_mul(block.count()),
        }
    }
}

impl RunInfo {
    /// Records the run, which took `host` on the host, in the profile's
    /// kernel table.
    pub fn profile(&self, host: std::time::Duration) {
        crate::profile::kernel(&self.mangled, self.blocks, self.threads, host);
    }
}

/// Says on stderr why kernel `kernel` cannot run on `device` and returns
/// the launch's error: the error code alone would not tell the user which
/// construct or limit the simulated device lacks.
pub fn cannot_run(kernel: &str, device: &str, code: Error, why: &str) -> Error {
    eprintln!("cucc runtime: kernel `{kernel}` cannot run on {device}: {why}");
    code
}

/// The module of `f` and the IR it kept, which the simulated devices
/// compile from; `fail` reports a module built without it.
pub fn kept_ir(
    f: &Function,
    fail: impl Fn(Error, &str) -> Error,
) -> CudaResult<(ModuleId, Arc<Source>)> {
    let id = f.module_id()?;
    let Some(source) = crate::kernel_ir::get(&id) else {
        return Err(fail(
            Error::NoKernelImageForDevice,
            "its IR was not kept (objects built with separate compilation do not embed it)",
        ));
    };
    Ok((id, source))
}

/// Rejects a launch whose host-side parameter count differs from the IR's.
pub fn check_param_count(
    in_ir: usize,
    from_host: usize,
    fail: impl Fn(Error, &str) -> Error,
) -> CudaResult {
    if in_ir != from_host {
        return Err(fail(
            Error::NoKernelImageForDevice,
            &format!("its IR has {in_ir} parameters, the host passes {from_host}"),
        ));
    }
    Ok(())
}

/// The CPU device's properties made over for a simulated device: CUDA's
/// launch limits hold there too (the compiler runs a block's threads as
/// loops), while the name, the UUID, the PCI address (`pci_offset` device
/// numbers past the CPU's, so bus-id queries tell the devices apart) and
/// the features none of the simulated devices has (an L2 cache, L1 caches,
/// concurrent kernels, copy engines, host-native atomics) are its own.
pub fn derived_properties(name: &str, uuid: &[u8; 16], pci_offset: c_int) -> cudaDeviceProp {
    let cpu = crate::device::properties();
    let mut p = cudaDeviceProp {
        pciDeviceID: cpu.pciDeviceID + pci_offset,
        l2CacheSize: 0,
        persistingL2CacheMaxSize: 0,
        concurrentKernels: 0,
        asyncEngineCount: 0,
        hostNativeAtomicSupported: 0,
        globalL1CacheSupported: 0,
        localL1CacheSupported: 0,
        ..*cpu
    };
    p.name = [0; 256];
    for (dst, src) in p.name.iter_mut().zip(name.bytes().take(255)) {
        *dst = src as c_char;
    }
    for (dst, src) in p.uuid.bytes.iter_mut().zip(uuid) {
        *dst = *src as c_char;
    }
    p
}

/// Checks what a simulated device's properties say of it: its name, its
/// multiprocessors, its clock (kHz) and its static shared memory a block.
#[cfg(test)]
pub(crate) fn assert_properties(
    p: &cudaDeviceProp,
    name: &str,
    multiprocessors: c_int,
    clock_khz: c_int,
    shared: usize,
) {
    let have: Vec<u8> = p
        .name
        .iter()
        .take_while(|&&c| c != 0)
        .map(|&c| c as u8)
        .collect();
    assert_eq!(String::from_utf8_lossy(&have), name);
    assert_eq!(p.multiProcessorCount, multiprocessors);
    assert_eq!(p.reserved[0], clock_khz);
    assert_eq!(p.sharedMemPerBlock, shared);
}

/// Sets the clock rates, in kHz, which this header keeps in `reserved`
/// (0: `clockRate`, 5: `memoryClockRate`); the memory of every simulated
/// device runs at its core clock.
pub fn set_clock(p: &mut cudaDeviceProp, hz: u64) {
    let khz = c_int::try_from(hz / 1000).unwrap_or(c_int::MAX);
    p.reserved[0] = khz;
    p.reserved[5] = khz;
}

/// Reads each argument's value (up to 8 bytes, zero-extended).
///
/// # Safety
/// `args` must hold one pointer per entry of `sizes`, each to a readable
/// value of that size (CUDA's contract for kernel arguments).
pub unsafe fn read_args(args: *mut *mut c_void, sizes: &[u32]) -> CudaResult<Vec<u64>> {
    if !sizes.is_empty() && args.is_null() {
        return Err(Error::InvalidValue);
    }
    let mut out = Vec::with_capacity(sizes.len());
    for (i, &size) in sizes.iter().enumerate() {
        // SAFETY: the caller promises `sizes.len()` pointers.
        let src = unsafe { *args.add(i) } as *const u8;
        if src.is_null() && size != 0 {
            return Err(Error::InvalidValue);
        }
        let mut bytes = [0u8; 8];
        let n = (size as usize).min(8);
        // SAFETY: the pointer holds `size` readable bytes.
        unsafe { std::ptr::copy_nonoverlapping(src, bytes.as_mut_ptr(), n) };
        out.push(u64::from_le_bytes(bytes));
    }
    Ok(out)
}

/// `v`'s low `bits` bits as a signed number.
pub fn sign_extend(v: u64, bits: u32) -> i64 {
    if bits == 0 || bits >= 64 {
        return v as i64;
    }
    let shift = 64 - bits;
    ((v << shift) as i64) >> shift
}

/// Copies the runs of bytes where `new` differs from `old` to `host`.
/// Only what the kernel changed goes back: other bytes of the range may
/// belong to work the program runs meanwhile.
///
/// # Safety
/// `host .. host + old.len()` must be writable; `new` is as long as `old`.
pub unsafe fn copy_back_changes(host: usize, old: &[u8], new: &[u8]) {
    let len = old.len().min(new.len());
    let mut i = 0;
    while i < len {
        if new[i] == old[i] {
            i += 1;
            continue;
        }
        let start = i;
        while i < len && new[i] != old[i] {
            i += 1;
        }
        // SAFETY: inside the range (the caller's contract).
        unsafe {
            std::ptr::copy_nonoverlapping(
                new[start..i].as_ptr(),
                (host + start) as *mut u8,
                i - start,
            )
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrow_integers_are_sign_extended() {
        assert_eq!(sign_extend(0xffff_ffff, 32), -1);
        assert_eq!(sign_extend(0x7fff_ffff, 32), i32::MAX as i64);
        assert_eq!(sign_extend(0x80, 8), -128);
        assert_eq!(sign_extend(5, 64), 5);
    }

    #[test]
    fn arguments_are_read_by_size() {
        let a: i32 = -7;
        let b: f64 = 1.5;
        let mut ptrs = [
            &a as *const i32 as *mut c_void,
            &b as *const f64 as *mut c_void,
        ];
        // SAFETY: two pointers to values of the given sizes.
        let v = unsafe { read_args(ptrs.as_mut_ptr(), &[4, 8]) };
        assert_eq!(v, Ok(vec![0xffff_fff9, 1.5f64.to_bits()]));
        // SAFETY: a null array with parameters is caught before use.
        let e = unsafe { read_args(std::ptr::null_mut(), &[4]) };
        assert_eq!(e, Err(Error::InvalidValue));
    }

    #[test]
    fn only_changed_bytes_are_written() {
        let mut host = [9u8; 6];
        let old = [1u8, 2, 3, 4, 5, 6];
        let new = [1u8, 7, 7, 4, 5, 8];
        // SAFETY: `host` is as long as `old`.
        unsafe { copy_back_changes(host.as_mut_ptr() as usize, &old, &new) };
        assert_eq!(host, [9, 7, 7, 9, 9, 8]);
    }
}
