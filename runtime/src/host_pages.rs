//! What backs a range of the program's host memory, so a large copy into
//! it can fault its pages in cheaply.
//!
//! A host buffer a program has only read so far (`calloc`, or `malloc`
//! memory read by an upload) is mapped page by page to the kernel's shared
//! zero page. Writing it breaks copy-on-write once per 4 KiB, and each
//! break flushes that page from the TLBs of every core the process runs
//! on: nw's 268 MB result buffer took 100–130 ms to fault in from one
//! thread and 140–570 ms from two. Dropping those mappings first
//! (`MADV_DONTNEED`, 0.6 ms) leaves pages that were never there, which two
//! threads fault in in 40 ms. That is only right for whole pages the copy
//! then overwrites, and only in private anonymous memory, where a dropped
//! page reads as zeros again: the caller passes such a range, and this
//! module checks the mapping (`/proc/self/maps`) and reads which pages are
//! present and exclusively the process's own (`/proc/self/pagemap`).

use std::ffi::c_void;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::os::unix::fs::FileExt;

const PAGE: usize = 4096;

/// `pagemap` bits: present, swapped, exclusively mapped.
const PRESENT: u64 = 1 << 63;
const SWAPPED: u64 = 1 << 62;
const EXCLUSIVE: u64 = 1 << 56;

/// True if `[begin, end)` lies in private anonymous mappings (no file, not
/// the stack), read from `/proc/self/maps`; false when unsure.
fn private_anonymous(begin: usize, end: usize) -> bool {
    let Ok(f) = File::open("/proc/self/maps") else {
        return false;
    };
    let mut at = begin;
    for line in BufReader::new(f).lines() {
        let Ok(line) = line else { return false };
        let mut parts = line.split_whitespace();
        let (Some(range), Some(perms), Some(_off), Some(_dev), Some(inode)) = (
            parts.next(),
            parts.next(),
            parts.next(),
            parts.next(),
            parts.next(),
        ) else {
            return false;
        };
        let path = parts.next().unwrap_or("");
        let Some((lo, hi)) = range.split_once('-') else {
            return false;
        };
        let (Ok(lo), Ok(hi)) = (usize::from_str_radix(lo, 16), usize::from_str_radix(hi, 16))
        else {
            return false;
        };
        if hi <= at {
            continue;
        }
        if lo > at {
            // A hole before the rest of the range.
            return false;
        }
        let anonymous = inode == "0" && (path.is_empty() || path == "[heap]");
        if !perms.starts_with("rw") || perms.as_bytes().get(3) != Some(&b'p') || !anonymous {
            return false;
        }
        at = hi;
        if at >= end {
            return true;
        }
    }
    false
}

/// Drops the pages of whole-page range `[begin, end)` (page aligned,
/// private anonymous memory the caller will overwrite entirely) that are
/// mapped but not the process's own — the zero page, or a page shared
/// with a forked process — or swapped out, so that faulting the range in
/// allocates fresh pages instead of breaking copy-on-write. Returns true
/// when no such page is left; false (and changes nothing) when the page
/// table cannot be read, or there are such pages and the range is not
/// private anonymous memory.
///
/// # Safety
/// No other thread may access the range while this runs, and the caller
/// must overwrite every byte of it afterwards: dropped pages read as
/// zeros.
pub unsafe fn drop_shared(begin: usize, end: usize) -> bool {
    if begin % PAGE != 0 || end % PAGE != 0 || end <= begin {
        return false;
    }
    let Ok(map) = File::open("/proc/self/pagemap") else {
        return false;
    };
    let pages = (end - begin) / PAGE;
    let mut entries = vec![0u8; pages * 8];
    if map
        .read_exact_at(&mut entries, (begin / PAGE * 8) as u64)
        .is_err()
    {
        return false;
    }
    let droppable = |i: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&entries[i * 8..i * 8 + 8]);
        let e = u64::from_le_bytes(b);
        (e & PRESENT != 0 && e & EXCLUSIVE == 0) || e & SWAPPED != 0
    };
    // The mapping is read only when something is to be dropped: a buffer
    // copied into again and again is all the process's own pages.
    if !(0..pages).any(droppable) {
        return true;
    }
    if !private_anonymous(begin, end) {
        return false;
    }
    let mut i = 0;
    while i < pages {
        if !droppable(i) {
            i += 1;
            continue;
        }
        let run = i;
        while i < pages && droppable(i) {
            i += 1;
        }
        // SAFETY: whole pages of private anonymous memory the caller
        // overwrites; a failure leaves them mapped, which is still correct.
        unsafe {
            libc::madvise(
                (begin + run * PAGE) as *mut c_void,
                (i - run) * PAGE,
                libc::MADV_DONTNEED,
            )
        };
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_only_shared_pages_and_keeps_own_ones() {
        let pages = 64;
        // SAFETY: a fresh private anonymous mapping, unmapped at the end.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                pages * PAGE,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        assert_ne!(base, libc::MAP_FAILED);
        let p = base as *mut u8;
        for page in 0..pages {
            // SAFETY: inside the mapping.
            unsafe {
                match page % 3 {
                    // Read only: the zero page.
                    0 => assert_eq!(p.add(page * PAGE).read_volatile(), 0),
                    // Written: the process's own page.
                    1 => p.add(page * PAGE + 5).write_volatile(7),
                    // Untouched.
                    _ => {}
                }
            }
        }
        let begin = base as usize;
        // SAFETY: the test's own mapping, not used by other threads.
        assert!(unsafe { drop_shared(begin, begin + pages * PAGE) });
        for page in 0..pages {
            // SAFETY: inside the mapping.
            let v = unsafe { p.add(page * PAGE + 5).read_volatile() };
            assert_eq!(v, if page % 3 == 1 { 7 } else { 0 }, "page {page}");
        }
        // Not page aligned, or not anonymous memory: nothing is done.
        // SAFETY: as above.
        assert!(!unsafe { drop_shared(begin + 1, begin + PAGE + 1) });
        // SAFETY: the mapping made above.
        unsafe { libc::munmap(base, pages * PAGE) };
    }

    #[test]
    fn file_mappings_are_left_alone() {
        let f = File::open("/proc/self/exe").expect("exe");
        let len = PAGE * 2;
        // SAFETY: a private read-only file mapping, unmapped at the end.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ,
                libc::MAP_PRIVATE,
                std::os::fd::AsRawFd::as_raw_fd(&f),
                0,
            )
        };
        assert_ne!(base, libc::MAP_FAILED);
        let begin = base as usize;
        assert!(!private_anonymous(begin, begin + len));
        // SAFETY: the mapping made above.
        unsafe { libc::munmap(base, len) };
    }
}
