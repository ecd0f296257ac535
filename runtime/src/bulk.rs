//! Bulk memory work: large copies and sets split over the block pool, and
//! committing the pages of large allocations up front.
//!
//! One core cannot saturate a many-core host's memory bandwidth, so with at
//! least [`MIN_SPLIT_EXECUTORS`] executors a copy or set of at least
//! [`SPLIT_BYTES`] runs in pieces on every executor ([`crate::pool`]).
//! Overlapping copies stay in one piece (`memmove` order matters there).
//!
//! A GPU backs an allocation when it is made. Host memory from the
//! allocator is backed at first touch instead, so the first copy into a
//! fresh `cudaMalloc` used to pay a page fault per 4 KiB inside the
//! program's timed region. Allocations of at least [`COMMIT_BYTES`] are
//! therefore populated when they are made (`CUCC_COMMIT=0` turns this off).

use std::ffi::c_void;
use std::sync::OnceLock;

use crate::host_pages;
use crate::pool::{executors, parallel_for};
use crate::streaming;

/// Copies and sets at least this large are split over the pool.
pub const SPLIT_BYTES: usize = 4 << 20;
/// Smallest piece of a split copy or set.
const MIN_PIECE: usize = 1 << 20;
/// Copies and sets split only with at least this many executors. On the
/// 2-core development VM one core reaches the memory bandwidth the machine
/// offers under its usual load: split copies measured 10–25% slower there
/// (1.3× faster only when the machine was otherwise idle), and cutting a
/// copy into pieces alone cost 10–15% against one `memmove`. On the idle
/// VM, splitting with 2 executors sped up pathfinder's 400 MB upload into
/// committed device memory (0.080 -> 0.068 s for the whole app) but slowed
/// nw's 268 MB download into untouched host memory (0.50 -> 0.66 s: the
/// pieces' page faults contend); copies into committed device memory
/// therefore split from [`MIN_SPLIT_EXECUTORS_COMMITTED`].
pub const MIN_SPLIT_EXECUTORS: usize = 4;
/// Pieces per executor of a split copy or set.
const PIECES_PER_EXECUTOR: usize = 4;
/// Allocations at least this large are committed when made.
pub const COMMIT_BYTES: usize = 2 << 20;

/// Copies into committed device memory split from this many executors.
pub const MIN_SPLIT_EXECUTORS_COMMITTED: usize = 2;

/// How many pieces `bytes` are cut into (1: not split).
fn pieces(bytes: usize) -> usize {
    pieces_for(bytes, MIN_SPLIT_EXECUTORS)
}

/// [`pieces`] with a floor of `min_executors`.
fn pieces_for(bytes: usize, min_executors: usize) -> usize {
    if bytes < SPLIT_BYTES || executors() < min_executors {
        return 1;
    }
    // Several pieces per executor: a helper that starts late takes fewer.
    (executors() * PIECES_PER_EXECUTOR)
        .min(bytes / MIN_PIECE)
        .max(1)
}

/// Byte range `[begin, end)` of piece `i` of `n` over `bytes`, cut at
/// 4 KiB multiples so pieces do not share pages or cache lines.
fn piece(bytes: usize, n: usize, i: usize) -> (usize, usize) {
    let per = bytes.div_ceil(n).next_multiple_of(4096);
    ((i * per).min(bytes), ((i + 1) * per).min(bytes))
}

/// Copies `count` bytes from `src` to `dst` (`memmove` semantics).
///
/// # Safety
/// Both ranges must be valid for `count` bytes.
pub unsafe fn copy(dst: usize, src: usize, count: usize) {
    // SAFETY: forwarded contract.
    unsafe { copy_in(dst, src, count, pieces(count), false) }
}

/// [`copy`] into device memory, whose large allocations are committed
/// ([`commit`]): split over the pool from [`MIN_SPLIT_EXECUTORS_COMMITTED`]
/// executors, as no page faults contend there.
///
/// # Safety
/// As [`copy`].
pub unsafe fn copy_to_device(dst: usize, src: usize, count: usize) {
    let n = if commit_enabled() {
        fault_free_pieces(count)
    } else {
        pieces(count)
    };
    // SAFETY: forwarded contract.
    unsafe { copy_in(dst, src, count, n, false) }
}

/// How many pieces a copy into memory that takes no page faults is cut
/// into: split from [`MIN_SPLIT_EXECUTORS_COMMITTED`] executors.
fn fault_free_pieces(count: usize) -> usize {
    if (MIN_SPLIT_EXECUTORS_COMMITTED..MIN_SPLIT_EXECUTORS).contains(&executors()) {
        pieces_for(count, MIN_SPLIT_EXECUTORS_COMMITTED)
    } else {
        pieces(count)
    }
}

/// Runs `run(begin, end)` on each of `n` pieces of `count` bytes, over the
/// pool when there are several.
fn each_piece(count: usize, n: usize, run: &(dyn Fn(usize, usize) + Sync)) {
    if n <= 1 {
        run(0, count);
        return;
    }
    parallel_for(n as u32, &|i| {
        let (b, e) = piece(count, n, i as usize);
        run(b, e);
    });
}

/// [`copy`] into pageable host memory, its pages faulted in first.
///
/// The whole pages the copy overwrites that are mapped to shared pages
/// (the zero page of memory only read so far) are dropped first
/// ([`host_pages::drop_shared`]); then every piece is faulted in and
/// copied by the executor that takes it. Two threads fault fresh pages in
/// about twice as fast as one (400 MB: 108 -> 53 ms), but breaking
/// copy-on-write of the zero page from two threads took 1.4–5.6 times
/// longer than from one (each break flushes the TLBs of both cores), so
/// where the page table cannot be read the destination is faulted in
/// from this thread alone ([`prefault`]) and then copied in pieces.
///
/// # Safety
/// As [`copy`]; `dst` must be host memory the caller may write, which no
/// other thread accesses during the copy.
pub unsafe fn copy_to_host(dst: usize, src: usize, count: usize) {
    const PAGE: usize = 4096;
    let overlap = dst < src.wrapping_add(count) && src < dst.wrapping_add(count);
    let begin = dst.next_multiple_of(PAGE);
    let end = dst.saturating_add(count) & !(PAGE - 1);
    // SAFETY: whole pages inside the destination, which the copy below
    // overwrites and no other thread accesses (the caller's contract).
    let fresh = count >= COMMIT_BYTES
        && !overlap
        && end > begin
        && unsafe { host_pages::drop_shared(begin, end) };
    if !fresh {
        // SAFETY: forwarded contract.
        unsafe {
            prefault(dst, count);
            copy_to_device(dst, src, count)
        };
        return;
    }
    // SAFETY: forwarded contract; the pieces' pages are faulted in by the
    // executors that copy them.
    unsafe { copy_in(dst, src, count, fault_free_pieces(count), true) }
}

/// [`copy`] in `n` pieces (one if the ranges overlap); with `fault_in`,
/// each piece's destination pages are faulted in ([`commit`]) by the
/// executor that then copies it.
///
/// # Safety
/// As [`copy`].
unsafe fn copy_in(dst: usize, src: usize, count: usize, n: usize, fault_in: bool) {
    let overlap = dst < src.wrapping_add(count) && src < dst.wrapping_add(count);
    if overlap {
        // SAFETY: the caller's contract.
        unsafe { std::ptr::copy(src as *const u8, dst as *mut u8, count) };
        return;
    }
    let streaming = count >= streaming::STREAM_BYTES;
    each_piece(count, n, &|b, e| {
        let (d, s) = ((dst + b) as *mut u8, (src + b) as *const u8);
        // SAFETY: a piece of non-overlapping valid ranges; populating
        // keeps contents.
        unsafe {
            if fault_in {
                commit(d as usize, e - b);
            }
            if streaming {
                streaming::copy(d, s, e - b)
            } else {
                std::ptr::copy_nonoverlapping(s, d, e - b)
            }
        }
    });
}

/// Sets `count` bytes at `dst` to `value`.
///
/// # Safety
/// The range must be valid for `count` bytes.
pub unsafe fn set(dst: usize, value: u8, count: usize) {
    // SAFETY: forwarded contract.
    unsafe { set_in(dst, value, count, pieces(count)) }
}

/// [`set`] in `n` pieces.
///
/// # Safety
/// As [`set`].
unsafe fn set_in(dst: usize, value: u8, count: usize, n: usize) {
    let streaming = count >= streaming::STREAM_BYTES;
    each_piece(count, n, &|b, e| {
        let d = (dst + b) as *mut u8;
        // SAFETY: a piece of the valid range.
        unsafe {
            if streaming {
                streaming::set(d, value, e - b)
            } else {
                std::ptr::write_bytes(d, value, e - b)
            }
        }
    });
}

/// A 2D region: `height` rows of `width` bytes, `pitch` bytes apart.
#[derive(Clone, Copy)]
pub struct Rows {
    /// Bytes between row starts at the destination.
    pub dpitch: usize,
    /// Bytes between row starts at the source.
    pub spitch: usize,
    /// Bytes per row.
    pub width: usize,
    /// Rows.
    pub height: usize,
}

/// Copies a 2D region row by row, rows split over the pool when large.
///
/// # Safety
/// Every row of both sides must be valid.
pub unsafe fn copy_rows(dst: usize, src: usize, r: Rows) {
    // SAFETY: forwarded contract.
    unsafe { copy_rows_in(dst, src, r, pieces(r.width * r.height)) }
}

/// [`copy_rows`] in up to `n` pieces of rows (one if the extents overlap).
///
/// # Safety
/// As [`copy_rows`].
unsafe fn copy_rows_in(dst: usize, src: usize, r: Rows, n: usize) {
    let dext = r.dpitch * (r.height - 1) + r.width;
    let sext = r.spitch * (r.height - 1) + r.width;
    let overlap = dst < src.wrapping_add(sext) && src < dst.wrapping_add(dext);
    let n = if overlap { 1 } else { n.min(r.height) };
    let run = |from: usize, to: usize| {
        for row in from..to {
            // SAFETY: every row lies in the caller's valid extent; `copy`
            // tolerates overlap.
            unsafe {
                std::ptr::copy(
                    (src + row * r.spitch) as *const u8,
                    (dst + row * r.dpitch) as *mut u8,
                    r.width,
                )
            };
        }
    };
    if n <= 1 {
        run(0, r.height);
        return;
    }
    let per = r.height.div_ceil(n);
    parallel_for(n as u32, &|i| {
        let from = (i as usize * per).min(r.height);
        run(from, (from + per).min(r.height));
    });
}

/// Whether large allocations are committed up front (`CUCC_COMMIT`, on
/// unless `0`).
pub fn commit_enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var("CUCC_COMMIT").map_or(true, |v| v.trim() != "0"))
}

/// Backs the whole pages of `[ptr, ptr + size)` with memory now: one
/// `MADV_POPULATE_WRITE`, or a write per page (rewriting the byte read) on
/// kernels without it. Contents are kept.
///
/// Populating from one thread: two threads were no faster (the fault path
/// serialises). Transparent huge pages are not requested: populating them
/// was 4 times faster when free huge pages were at hand, but up to a second
/// slower when the kernel first had to compact memory.
///
/// # Safety
/// The range must be a live allocation of the caller's.
pub unsafe fn commit(ptr: usize, size: usize) {
    const PAGE: usize = 4096;
    let begin = ptr.next_multiple_of(PAGE);
    let end = (ptr + size) & !(PAGE - 1);
    if end <= begin {
        return;
    }
    // SAFETY: whole pages inside the caller's allocation; populating does
    // not change contents.
    let done =
        unsafe { libc::madvise(begin as *mut c_void, end - begin, libc::MADV_POPULATE_WRITE) } == 0;
    if !done {
        for page in (begin..end).step_by(PAGE) {
            let p = page as *mut u8;
            // SAFETY: inside the allocation; rewrites the byte it read.
            unsafe { p.write_volatile(p.read_volatile()) };
        }
    }
}

/// Faults in the whole pages of host range `[ptr, ptr + size)` before a
/// copy writes them: one `MADV_POPULATE_WRITE`, nothing where the kernel
/// lacks it or refuses (the copy then faults page by page, as before).
///
/// A program's host buffer is often fresh (`calloc`, `malloc` of a large
/// size): a copy into it took a page fault per 4 KiB, about half the
/// time of nw's 268 MB download. Populating first served the same pages
/// about twice as fast (268 MB: 146–222 ms of copy faulting page by page,
/// 83–112 ms populated then copied). Only pages wholly inside the range
/// are touched, and populating keeps contents, so other threads' writes
/// to neighbouring bytes are safe.
///
/// # Safety
/// The range must be host memory the caller may write.
pub unsafe fn prefault(ptr: usize, size: usize) {
    const PAGE: usize = 4096;
    if size < COMMIT_BYTES {
        return;
    }
    let begin = ptr.next_multiple_of(PAGE);
    let end = ptr.saturating_add(size) & !(PAGE - 1);
    if end <= begin {
        return;
    }
    // SAFETY: whole pages inside a range the caller may write; populating
    // does not change contents. A failure only means no prefaulting.
    let _ = unsafe { libc::madvise(begin as *mut c_void, end - begin, libc::MADV_POPULATE_WRITE) };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copy_to_device_is_exact() {
        let n = SPLIT_BYTES * 3 + 4321;
        let src: Vec<u8> = (0..n).map(|i| (i * 13 % 241) as u8).collect();
        let mut dst = vec![0u8; n];
        // SAFETY: two live vectors of `n` bytes.
        unsafe { copy_to_device(dst.as_mut_ptr() as usize, src.as_ptr() as usize, n) };
        assert!(dst == src);
    }

    #[test]
    fn copy_to_host_over_read_only_memory_is_exact() {
        let n = COMMIT_BYTES * 3 + 1234;
        let src: Vec<u8> = (0..n).map(|i| (i * 11 % 239) as u8).collect();
        // Zeroed memory read before the copy (the zero page), with a
        // written byte before and after the destination.
        let mut dst = vec![0u8; n + 8192];
        let sum: u64 = dst.iter().step_by(4096).map(|&b| u64::from(b)).sum();
        assert_eq!(sum, 0);
        dst[100] = 42;
        dst[n + 8000] = 43;
        // SAFETY: `n` bytes from offset 777 lie inside `dst`.
        unsafe { copy_to_host(dst.as_mut_ptr() as usize + 777, src.as_ptr() as usize, n) };
        assert!(dst[777..777 + n] == src[..]);
        assert_eq!((dst[100], dst[n + 8000]), (42, 43));
    }

    #[test]
    fn prefault_keeps_contents() {
        let n = COMMIT_BYTES * 2 + 777;
        let mut v: Vec<u8> = (0..n).map(|i| (i % 253) as u8).collect();
        // SAFETY: the vector's own bytes.
        unsafe { prefault(v.as_mut_ptr() as usize + 3, n - 5) };
        assert!(v.iter().enumerate().all(|(i, &b)| b == (i % 253) as u8));
    }

    #[test]
    fn pieces_cover_the_range_exactly() {
        for bytes in [SPLIT_BYTES, SPLIT_BYTES + 1, 3 * SPLIT_BYTES + 4095] {
            for n in 1..5 {
                let mut at = 0;
                for i in 0..n {
                    let (b, e) = piece(bytes, n, i);
                    assert_eq!(b, at);
                    at = e;
                }
                assert_eq!(at, bytes);
            }
        }
    }

    #[test]
    fn large_copy_set_and_rows_are_exact() {
        let n = SPLIT_BYTES * 2 + 12345;
        let src: Vec<u8> = (0..n).map(|i| (i * 7 % 251) as u8).collect();
        let mut dst = vec![0u8; n];
        // SAFETY: both buffers hold `n` bytes.
        unsafe {
            copy_in(
                dst.as_mut_ptr() as usize,
                src.as_ptr() as usize,
                n,
                3,
                false,
            )
        };
        assert!(dst == src);
        // SAFETY: as above.
        unsafe { set_in(dst.as_mut_ptr() as usize, 9, n, 3) };
        assert!(dst.iter().all(|&b| b == 9));
        let rows = Rows {
            dpitch: 4096,
            spitch: 4000,
            width: 3000,
            height: n / 4096,
        };
        // SAFETY: every row lies inside both buffers.
        unsafe { copy_rows_in(dst.as_mut_ptr() as usize, src.as_ptr() as usize, rows, 3) };
        for r in 0..rows.height {
            assert_eq!(
                &dst[r * 4096..r * 4096 + 3000],
                &src[r * 4000..r * 4000 + 3000]
            );
            assert!(dst[r * 4096 + 3000..r * 4096 + 4096]
                .iter()
                .all(|&b| b == 9));
        }
    }

    #[test]
    fn overlapping_copy_keeps_memmove_order() {
        let n = SPLIT_BYTES * 2;
        let mut buf: Vec<u8> = (0..n + 4096).map(|i| (i % 253) as u8).collect();
        let want: Vec<u8> = buf[..n].to_vec();
        let base = buf.as_mut_ptr() as usize;
        // SAFETY: both ranges lie in `buf`.
        unsafe { copy_in(base + 4096, base, n, 3, false) };
        assert!(buf[4096..] == want[..]);
    }

    #[test]
    fn commit_keeps_contents() {
        let mut v = vec![5u8; COMMIT_BYTES * 2];
        // SAFETY: the vector's own range.
        unsafe { commit(v.as_mut_ptr() as usize, v.len()) };
        assert!(v.iter().all(|&b| b == 5));
    }
}
