//! Copies bytes out of the process's own memory without trusting the
//! address: a fat binary's header gives its size, and a corrupt size (or a
//! bogus pointer in a wrapper) must give an error, not a segfault.
//! `process_vm_readv` on our own pid reports unmapped memory as `EFAULT`;
//! where the call is not allowed (seccomp, old kernels) the copy is direct.

/// Reads `len` bytes at `addr`; `None` if they are not all readable.
///
/// # Safety
/// Where `process_vm_readv` is unavailable the memory is read directly, so
/// the caller must believe it to be readable (the registration contract).
pub unsafe fn read(addr: usize, len: usize) -> Option<Vec<u8>> {
    if addr == 0 {
        return None;
    }
    addr.checked_add(len)?;
    let mut out = vec![0u8; len];
    if len == 0 {
        return Some(out);
    }
    let local = libc::iovec {
        iov_base: out.as_mut_ptr().cast(),
        iov_len: len,
    };
    let remote = libc::iovec {
        iov_base: addr as *mut libc::c_void,
        iov_len: len,
    };
    // SAFETY: `local` is our buffer of `len` bytes; the kernel checks `remote`.
    let n = unsafe { libc::process_vm_readv(libc::getpid(), &local, 1, &remote, 1, 0) };
    if n == len as isize {
        return Some(out);
    }
    if n < 0 {
        let errno = std::io::Error::last_os_error().raw_os_error();
        if matches!(errno, Some(libc::ENOSYS) | Some(libc::EPERM)) {
            // SAFETY: the caller vouches for the range (see above).
            out.copy_from_slice(unsafe { std::slice::from_raw_parts(addr as *const u8, len) });
            return Some(out);
        }
    }
    None
}

/// Reads a pointer-sized word at `addr`.
///
/// # Safety
/// As [`read`].
pub unsafe fn read_usize(addr: usize) -> Option<usize> {
    // SAFETY: forwarded contract.
    let b = unsafe { read(addr, std::mem::size_of::<usize>()) }?;
    Some(usize::from_ne_bytes(b.try_into().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_mapped_and_refuses_unmapped_memory() {
        let data = [1u8, 2, 3, 4, 5];
        // SAFETY: a live local array.
        assert_eq!(
            unsafe { read(data.as_ptr() as usize, 5) },
            Some(data.to_vec())
        );
        // SAFETY: NULL and the top of the address space are refused, not read.
        assert_eq!(unsafe { read(0, 4) }, None);
        assert_eq!(unsafe { read(usize::MAX - 2, 4) }, None);
        // An unmapped page; only where the checked read exists (elsewhere the
        // fallback would really read it).
        let mut byte = 0u8;
        let local = libc::iovec {
            iov_base: (&mut byte as *mut u8).cast(),
            iov_len: 1,
        };
        let remote = libc::iovec {
            iov_base: data.as_ptr() as *mut libc::c_void,
            iov_len: 1,
        };
        // SAFETY: both ranges are live one-byte buffers.
        if unsafe { libc::process_vm_readv(libc::getpid(), &local, 1, &remote, 1, 0) } != 1 {
            eprintln!("note: process_vm_readv unavailable; unmapped reads not tested");
            return;
        }
        // SAFETY: plain anonymous mapping, unmapped again before the read.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                4096,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        assert_ne!(p, libc::MAP_FAILED);
        // SAFETY: unmapping our own mapping.
        unsafe { libc::munmap(p, 4096) };
        // SAFETY: process_vm_readv reports EFAULT for the unmapped page.
        let r = unsafe { read(p as usize, 16) };
        assert_eq!(r, None, "read an unmapped page");
    }
}
