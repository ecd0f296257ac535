//! Plumbing the simulated devices share (`crate::snitch`, `crate::racer`):
//! reading a launch's argument values, and writing back only the bytes a
//! simulated kernel changed.

use std::ffi::c_void;

use crate::errors::{CudaResult, Error};

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
