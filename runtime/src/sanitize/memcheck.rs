//! memcheck's run-time side: the slow path of an access check (is the
//! range inside a live allocation?) and the report of a failed one.
//!
//! The emitted checks keep a small cache of allocation ranges per chunk
//! (`cucc_mc_state`), so the allocation table's read lock is taken only on
//! a miss; allocations cannot change while a kernel runs (`cudaFree`
//! synchronises the device). Freed ranges are remembered (the last
//! [`FREED_KEPT`]) only to name a use after `cudaFree` in a report.

use std::collections::VecDeque;
use std::ffi::c_void;
use std::sync::Mutex;

use super::{count_error, who, Site, SiteText, PREFIX, SITE_ATOMIC, SITE_SHARED, SITE_WRITE};
use crate::errors::{set_sticky, Error};

/// How many freed ranges are remembered for reports.
pub const FREED_KEPT: usize = 4096;

static FREED: Mutex<VecDeque<(usize, usize)>> = Mutex::new(VecDeque::new());

/// Records a range `cudaFree` (or a sibling) released, when checking.
pub(crate) fn note_free(start: usize, size: usize) {
    if super::mode() != super::Sanitize::Memcheck {
        return;
    }
    let mut freed = crate::sync::lock(&FREED);
    if freed.len() == FREED_KEPT {
        freed.pop_front();
    }
    freed.push_back((start, size));
}

/// The slow path of a check: 1 if `[a, a + n)` lies inside one live
/// allocation the runtime knows (its range is then stored in `*lo`, `*hi`
/// for the check's cache), else 0.
///
/// # Safety
/// `lo` and `hi` must be valid for writes.
#[no_mangle]
pub unsafe extern "C" fn __cucc_mc_lookup(a: usize, n: u64, lo: *mut usize, hi: *mut usize) -> i32 {
    let Some(end) = a.checked_add(n as usize) else {
        return 0;
    };
    match crate::alloc_table::find(a) {
        Some((start, alloc)) if end <= start + alloc.size => {
            if !lo.is_null() && !hi.is_null() {
                // SAFETY: caller promises valid pointers.
                unsafe {
                    *lo = start;
                    *hi = start + alloc.size;
                }
            }
            1
        }
        _ => 0,
    }
}

/// What `[a, a + n)` is, for a report: in or near which allocation.
fn describe(a: usize, n: u64, shared: Option<(usize, usize)>) -> String {
    let end = a.saturating_add(n as usize);
    if let Some((slo, shi)) = shared {
        let size = shi - slo;
        return if a >= slo && a < shi {
            format!(
                "Address {a:#x} is at offset {} of the block's {size} bytes of shared memory \
                 and the access runs {} bytes past their end",
                a - slo,
                end - shi
            )
        } else if a < slo {
            format!(
                "Address {a:#x} is {} bytes before the block's {size} bytes of shared memory at {slo:#x}",
                slo - a
            )
        } else {
            format!(
                "Address {a:#x} is {} bytes after the block's {size} bytes of shared memory at {slo:#x}",
                a - shi
            )
        };
    }
    if let Some((start, alloc)) = crate::alloc_table::find(a) {
        return format!(
            "Address {a:#x} is at offset {} of the allocation at {start:#x} of size {} bytes \
             and the access runs {} bytes past its end",
            a - start,
            alloc.size,
            end - (start + alloc.size)
        );
    }
    let freed = crate::sync::lock(&FREED)
        .iter()
        .rev()
        .find(|&&(s, size)| a >= s && a < s + size.max(1))
        .copied();
    if let Some((s, size)) = freed {
        return format!(
            "Address {a:#x} is at offset {} of the allocation at {s:#x} of size {size} bytes, \
             which was freed (use after cudaFree)",
            a - s
        );
    }
    let table = crate::alloc_table::read();
    let before = table.range(..=a).next_back().map(|(&s, al)| (s, al.size));
    let after = table.range(a..).next().map(|(&s, al)| (s, al.size));
    drop(table);
    let gap_before = before.map(|(s, size)| a.saturating_sub(s + size));
    let gap_after = after.map(|(s, _)| s.saturating_sub(a));
    let mut text = format!("Address {a:#x} is out of bounds");
    match (gap_before, gap_after) {
        (Some(gb), ga) if ga.is_none_or(|ga| gb <= ga) => {
            if let Some((s, size)) = before {
                text.push_str(&format!(
                    "\n{PREFIX}     and is {} bytes after the nearest allocation at {s:#x} of size {size} bytes",
                    gb
                ));
            }
        }
        (_, Some(ga)) => {
            if let Some((s, size)) = after {
                text.push_str(&format!(
                    "\n{PREFIX}     and is {ga} bytes before the nearest allocation at {s:#x} of size {size} bytes"
                ));
            }
        }
        _ => {}
    }
    text
}

/// A failed check: reports it (the first of a launch only: the launch is
/// stopped, and the entry returns right after the call) and records the
/// sticky `cudaErrorLaunchFailure` the program then sees, as under
/// compute-sanitizer.
///
/// # Safety
/// `site` must be NULL or a site of the emitted C, `launch` NULL or the
/// running entry's launch description.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn __cucc_mc_fail(
    site: *const Site,
    a: usize,
    n: u64,
    launch: *const c_void,
    blk: u32,
    thr: u32,
    slo: usize,
    shi: usize,
) {
    let _ = std::panic::catch_unwind(|| {
        if !crate::job::claim_abort() {
            return;
        }
        // SAFETY: forwarded contract.
        let (s, who) = unsafe { (SiteText::of(site), who(launch, blk, thr)) };
        let shared = s.flags & SITE_SHARED != 0;
        let space = if shared { "__shared__" } else { "__global__" };
        let kind = match (s.flags & SITE_ATOMIC != 0, s.flags & SITE_WRITE != 0) {
            (true, _) => "atomic",
            (false, true) => "write",
            (false, false) => "read",
        };
        let object = if s.what.is_empty() {
            String::new()
        } else {
            format!(" through `{}`", s.what)
        };
        let where_ = describe(a, n, shared.then_some((slo, shi)));
        count_error();
        eprintln!(
            "{PREFIX} Invalid {space} {kind} of size {n} bytes{object}\n\
             {PREFIX}     at {}\n\
             {PREFIX}     by {who}\n\
             {PREFIX}     {where_}\n\
             {PREFIX}     the launch was stopped (cudaErrorLaunchFailure)",
            s.at()
        );
        set_sticky(Error::LaunchFailure);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookups_accept_whole_ranges_inside_one_allocation() {
        let buf = vec![0u8; 256];
        let start = buf.as_ptr() as usize;
        // SAFETY: the vector outlives the entry (removed below).
        unsafe {
            crate::alloc_table::insert_range(start, 256, crate::alloc_table::Kind::Registered)
        };
        let (mut lo, mut hi) = (0usize, 0usize);
        // SAFETY: valid out-pointers.
        let inside = unsafe { __cucc_mc_lookup(start + 252, 4, &mut lo, &mut hi) };
        assert_eq!((inside, lo, hi), (1, start, start + 256));
        // SAFETY: as above.
        let past = unsafe { __cucc_mc_lookup(start + 253, 4, &mut lo, &mut hi) };
        assert_eq!(past, 0);
        let text = describe(start + 256 + 8, 4, None);
        // Other tests' ranges may lie nearer; the address is out of bounds.
        assert!(text.contains("is out of bounds"), "{text}");
        let text = describe(start + 250, 8, None);
        assert!(
            text.contains("offset 250") && text.contains("runs 2 bytes past its end"),
            "{text}"
        );
        let shared = describe(0x1000 + 64, 4, Some((0x1000, 0x1040)));
        assert!(
            shared.contains("0 bytes after the block's 64 bytes"),
            "{shared}"
        );
        crate::alloc_table::write().remove(&start);
    }
}
