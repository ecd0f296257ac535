//! Device memory apart from the host heap.
//!
//! Every allocation the runtime owns (`cudaMalloc` and the pitched and 3-D
//! forms, `cudaMallocManaged`, `cudaMallocHost`) is a mapping of its own:
//! [`GUARD`] bytes of inaccessible address space, [`READ_SLACK`] bytes that
//! read as zeros and cannot be written, the pages holding the data, then
//! [`READ_SLACK`] and [`GUARD`] bytes again. The data ends flush against
//! the upper slack (less the rounding to [`ALLOC_ALIGN`]), so a kernel
//! writing off either end of a buffer faults at once (contained:
//! [`crate::fault`], `cudaErrorIllegalAddress`) instead of writing into the
//! heap that holds glibc's and the runtime's own bookkeeping, or into a
//! neighbouring allocation, and an access farther away faults too.
//!
//! Reads just outside a buffer succeed, as they do on a GPU, where
//! allocations sit next to each other in mapped memory: real programs
//! read a row before and after an image and discard it (Rodinia's
//! srad_v2 loads `J[index - cols]` in its first row of blocks before
//! overwriting it). Such reads give zeros here; `CUCC_SANITIZE=memcheck`
//! still reports them. The costs: a `mmap` and two `mprotect`s per
//! allocation, whole pages per allocation, 256 KiB of address space (not
//! memory: the slack maps the zero page) around each.

use crate::memory::ALLOC_ALIGN;

/// Inaccessible bytes on each side of an allocation, beyond the slack.
pub const GUARD: usize = 64 << 10;

/// Read-only (zero) bytes on each side of an allocation: a row of a
/// 16384-float-wide image.
pub const READ_SLACK: usize = 64 << 10;

fn page() -> usize {
    // SAFETY: sysconf has no preconditions.
    let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    usize::try_from(p).ok().filter(|&p| p > 0).unwrap_or(4096)
}

/// (data bytes rounded to the alignment, accessible bytes, whole mapping).
fn layout(size: usize) -> Option<(usize, usize, usize)> {
    let data = size.max(1).checked_next_multiple_of(ALLOC_ALIGN)?;
    let span = data.checked_next_multiple_of(page())?;
    let total = span.checked_add(2 * (GUARD + READ_SLACK))?;
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
    // SAFETY: inside the mapping just made: the slack and data readable,
    // then the data writable too.
    let rc = unsafe {
        let readable = libc::mprotect(
            (base + GUARD) as *mut libc::c_void,
            span + 2 * READ_SLACK,
            libc::PROT_READ,
        );
        if readable == 0 {
            libc::mprotect(
                (base + GUARD + READ_SLACK) as *mut libc::c_void,
                span,
                libc::PROT_READ | libc::PROT_WRITE,
            )
        } else {
            readable
        }
    };
    if rc != 0 {
        // SAFETY: the mapping just made, used by nobody.
        unsafe { libc::munmap(base as *mut libc::c_void, total) };
        return None;
    }
    Some(base + GUARD + READ_SLACK + span - data)
}

/// Unmaps an allocation [`map`] returned for `size` bytes.
///
/// # Safety
/// `ptr` must come from `map(size)` and not be used afterwards.
pub unsafe fn unmap(ptr: usize, size: usize) {
    if let Some((data, span, total)) = layout(size) {
        let base = ptr + data - span - GUARD - READ_SLACK;
        // SAFETY: the caller's contract: exactly the mapping `map` made.
        unsafe { libc::munmap(base as *mut libc::c_void, total) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the kernel can read one byte at `addr` (write(2) from an
    /// inaccessible address fails with EFAULT instead of faulting).
    fn can_read(addr: usize) -> bool {
        // SAFETY: a fresh pipe; the kernel checks `addr`.
        unsafe {
            let mut pfd = [0i32; 2];
            assert_eq!(libc::pipe(pfd.as_mut_ptr()), 0);
            let r = libc::write(pfd[1], addr as *const libc::c_void, 1);
            libc::close(pfd[0]);
            libc::close(pfd[1]);
            r == 1
        }
    }

    /// Whether the kernel can write one byte at `addr` (read(2) into it).
    fn can_write(addr: usize) -> bool {
        // SAFETY: a fresh pipe holding one byte; the kernel checks `addr`,
        // and callers pass bytes whose contents they do not need.
        unsafe {
            let mut pfd = [0i32; 2];
            assert_eq!(libc::pipe(pfd.as_mut_ptr()), 0);
            assert_eq!(
                libc::write(pfd[1], [9u8].as_ptr() as *const libc::c_void, 1),
                1
            );
            let r = libc::read(pfd[0], addr as *mut libc::c_void, 1);
            libc::close(pfd[0]);
            libc::close(pfd[1]);
            r == 1
        }
    }

    #[test]
    fn allocations_are_aligned_zeroed_and_end_at_read_only_slack_then_a_guard() {
        for size in [0usize, 1, 255, 256, 1000, 4096, 5000, 1 << 20] {
            let p = map(size).expect("map");
            assert_eq!(p % ALLOC_ALIGN, 0);
            let n = size.max(1);
            // SAFETY: the allocation just made, `n` bytes.
            let bytes = unsafe { std::slice::from_raw_parts_mut(p as *mut u8, n) };
            assert!(bytes.iter().all(|&b| b == 0));
            bytes.fill(7);
            assert!(can_write(p) && can_write(p + n - 1));
            // Just outside on either side: reads as zero, cannot be written.
            let data = n.next_multiple_of(ALLOC_ALIGN);
            let after = p + data;
            // The data ends flush against the upper slack; its pages start
            // at `lower`.
            let lower = p - (data.next_multiple_of(page()) - data);
            let before = lower - 1;
            for (what, at) in [("after", after), ("before", before)] {
                assert!(can_read(at), "{size} bytes: the byte {what} cannot be read");
                assert!(
                    !can_write(at),
                    "{size} bytes: the byte {what} can be written"
                );
                // SAFETY: readable, as just checked.
                assert_eq!(unsafe { (at as *const u8).read_volatile() }, 0);
            }
            // Past the slack: no access at all.
            for at in [after + READ_SLACK, lower - READ_SLACK - 1] {
                assert!(
                    !can_read(at),
                    "{size} bytes: {at:#x} past the slack is readable"
                );
            }
            // SAFETY: from `map(size)`.
            unsafe { unmap(p, size) };
        }
    }
}
