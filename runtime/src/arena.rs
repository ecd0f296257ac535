//! Device memory apart from the host heap.
//!
//! Every allocation the runtime owns (`cudaMalloc` and the pitched and 3-D
//! forms, `cudaMallocManaged`, `cudaMallocHost`) is a mapping of its own:
//! [`GUARD`] bytes of inaccessible address space, the pages holding the
//! data, [`GUARD`] more. The data ends flush against the upper guard (less
//! the rounding to [`ALLOC_ALIGN`]), so a kernel running off the end of a
//! buffer faults at once (contained: [`crate::fault`]) instead of writing
//! into the heap that holds glibc's and the runtime's own bookkeeping, or
//! into a neighbouring allocation. The costs: a `mmap` and an `mprotect`
//! per allocation, whole pages per allocation, 128 KiB of address space
//! (not memory) of guards.

use crate::memory::ALLOC_ALIGN;

/// Inaccessible bytes on each side of an allocation.
pub const GUARD: usize = 64 << 10;

fn page() -> usize {
    // SAFETY: sysconf has no preconditions.
    let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    usize::try_from(p).ok().filter(|&p| p > 0).unwrap_or(4096)
}

/// (data bytes rounded to the alignment, accessible bytes, whole mapping).
fn layout(size: usize) -> Option<(usize, usize, usize)> {
    let data = size.max(1).checked_next_multiple_of(ALLOC_ALIGN)?;
    let span = data.checked_next_multiple_of(page())?;
    let total = span.checked_add(2 * GUARD)?;
    Some((data, span, total))
}

/// Maps a new allocation of `size` bytes, zero-filled, aligned to
/// [`ALLOC_ALIGN`]; `None` when out of memory or address space.
pub fn map(size: usize) -> Option<usize> {
    let (data, span, total) = layout(size)?;
    // SAFETY: a fresh anonymous mapping, inaccessible until opened below.
    let base = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            total,
            libc::PROT_NONE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    if base == libc::MAP_FAILED {
        return None;
    }
    let base = base as usize;
    // SAFETY: the middle of the mapping just made.
    let rc = unsafe {
        libc::mprotect(
            (base + GUARD) as *mut libc::c_void,
            span,
            libc::PROT_READ | libc::PROT_WRITE,
        )
    };
    if rc != 0 {
        // SAFETY: the mapping just made, used by nobody.
        unsafe { libc::munmap(base as *mut libc::c_void, total) };
        return None;
    }
    Some(base + GUARD + span - data)
}

/// Unmaps an allocation [`map`] returned for `size` bytes.
///
/// # Safety
/// `ptr` must come from `map(size)` and not be used afterwards.
pub unsafe fn unmap(ptr: usize, size: usize) {
    if let Some((data, span, total)) = layout(size) {
        let base = ptr + data - span - GUARD;
        // SAFETY: the caller's contract: exactly the mapping `map` made.
        unsafe { libc::munmap(base as *mut libc::c_void, total) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocations_are_aligned_zeroed_and_end_at_a_guard() {
        for size in [0usize, 1, 255, 256, 1000, 4096, 5000, 1 << 20] {
            let p = map(size).expect("map");
            assert_eq!(p % ALLOC_ALIGN, 0);
            let n = size.max(1);
            // SAFETY: the allocation just made, `n` bytes.
            let bytes = unsafe { std::slice::from_raw_parts_mut(p as *mut u8, n) };
            assert!(bytes.iter().all(|&b| b == 0));
            bytes.fill(7);
            // The byte after the rounded data is in the guard: no access.
            let after = p + n.next_multiple_of(ALLOC_ALIGN);
            let mut vec = [0u8; 1];
            // SAFETY: mincore only inspects the mapping state of a page.
            let probe = unsafe {
                libc::mincore(
                    (after & !(page() - 1)) as *mut libc::c_void,
                    1,
                    vec.as_mut_ptr(),
                )
            };
            assert_eq!(probe, 0, "the guard is mapped (inaccessible), not a hole");
            let readable = unsafe {
                let mut pfd = [0i32; 2];
                assert_eq!(libc::pipe(pfd.as_mut_ptr()), 0);
                // write(2) from an inaccessible address fails with EFAULT
                // instead of faulting.
                let r = libc::write(pfd[1], after as *const libc::c_void, 1);
                libc::close(pfd[0]);
                libc::close(pfd[1]);
                r
            };
            assert_eq!(readable, -1, "the byte after {size} bytes is accessible");
            // SAFETY: from `map(size)`.
            unsafe { unmap(p, size) };
        }
    }
}
