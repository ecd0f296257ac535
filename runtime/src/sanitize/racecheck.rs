//! racecheck's run-time side: the per-worker shadow of shared memory and
//! the report of a hazard.
//!
//! Each worker thread owns one shadow (a cell per byte of the largest
//! shared window it has run), reused from block to block: cells carry the
//! phase (a run of a thread loop) that last touched them, and phases are
//! numbered per worker, so a new block or phase never sees stale accesses
//! as its own. A hazard is reported once per pair of sites and kind, and
//! counted as one error; the kernel goes on, as under compute-sanitizer.

use std::cell::UnsafeCell;
use std::collections::HashSet;
use std::ffi::c_void;
use std::sync::Mutex;

use super::{count_error, who, Site, SiteText, PREFIX};
/// One shadow cell (`cucc_rc_cell`).
use cucc_cpuify::abi::RcCell as Cell;

const EMPTY: Cell = Cell {
    epoch: 0,
    w: u32::MAX,
    r1: u32::MAX,
    r2: u32::MAX,
    ws: std::ptr::null(),
    rs: std::ptr::null(),
};

/// The state a checked entry holds (`cucc_rc_state`).
pub use cucc_cpuify::abi::RcState as State;

struct Shadow {
    state: State,
    cells: Vec<Cell>,
}

thread_local! {
    static SHADOW: UnsafeCell<Shadow> = const { UnsafeCell::new(Shadow {
        state: State { epoch: 0, segment: 0, cells: std::ptr::null_mut(), base: 0, size: 0 },
        cells: Vec::new(),
    }) };
}

/// Called at the top of a checked entry: the calling worker's shadow for a
/// shared window of `size` bytes at `scratch`.
#[no_mangle]
pub extern "C" fn __cucc_rc_begin(scratch: *mut c_void, size: u64) -> *mut State {
    SHADOW.with(|s| {
        // SAFETY: the cell is only touched by this thread, and the entry
        // that gets the pointer runs on it until it returns.
        let s = unsafe { &mut *s.get() };
        let n = usize::try_from(size).unwrap_or(usize::MAX);
        if s.cells.len() < n {
            s.cells.resize(n, EMPTY);
        }
        s.state.cells = s.cells.as_mut_ptr();
        s.state.base = scratch as usize;
        s.state.size = size;
        &mut s.state as *mut State
    })
}

static SEEN: Mutex<Option<HashSet<(usize, usize, i32)>>> = Mutex::new(None);

/// A hazard between the earlier access (`first` by thread `t1`) and the
/// later one (`second` by `t2`) to byte `offset` of the shared window in
/// one phase: `kind` 0 write after write, 1 write after read, 2 read after
/// write, 3 write after write of the same bytes (a warning: not counted as
/// an error).
///
/// # Safety
/// Sites must be NULL or sites of the emitted C, `launch` NULL or the
/// running entry's launch description.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn __cucc_rc_hazard(
    first: *const Site,
    t1: u32,
    second: *const Site,
    t2: u32,
    offset: u64,
    kind: i32,
    launch: *const c_void,
    blk: u32,
) {
    let _ = std::panic::catch_unwind(|| {
        {
            let mut seen = crate::sync::lock(&SEEN);
            if !seen.get_or_insert_with(HashSet::new).insert((
                first as usize,
                second as usize,
                kind,
            )) {
                return;
            }
        }
        let severity = if kind == 3 {
            super::count_warning();
            "Warning"
        } else {
            count_error();
            "Error"
        };
        // SAFETY: forwarded contract.
        let (a, b) = unsafe { (SiteText::of(first), SiteText::of(second)) };
        // SAFETY: forwarded contract.
        let (w1, w2) = unsafe { (who(launch, blk, t1), who(launch, blk, t2)) };
        let (k1, k2) = match kind {
            0 | 3 => ("Write", "Write"),
            1 => ("Read", "Write"),
            _ => ("Write", "Read"),
        };
        let var = if !b.what.is_empty() {
            format!(" (`{}`)", b.what)
        } else if !a.what.is_empty() {
            format!(" (`{}`)", a.what)
        } else {
            String::new()
        };
        eprintln!(
            "{PREFIX} {severity}: Race reported between {k1} access at {}\n\
             {PREFIX}     by {w1}\n\
             {PREFIX}     and {k2} access at {}\n\
             {PREFIX}     by {w2}\n\
             {PREFIX}     to byte {offset} of shared memory{var}, with no barrier between them{}",
            a.at(),
            b.at(),
            if kind == 3 {
                " (both wrote the same value)"
            } else {
                ""
            }
        );
    });
}
