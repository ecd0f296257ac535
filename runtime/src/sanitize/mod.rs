//! `CUCC_SANITIZE=memcheck|racecheck`: kernels built with run-time checks
//! (docs/sanitize.md).
//!
//! The mode is read once. Under a mode, the JIT translates PTX with checks
//! (the mode is part of the cache key), and a cucc-built device object that
//! embeds its IR (`__cucc_register_module_ir`) is rebuilt with checks by
//! the same JIT and registered under its own module id, replacing the
//! ahead-of-time kernels. The checks call back into [`memcheck`] and
//! [`racecheck`]; every error is counted, and at exit the process prints
//! `ERROR SUMMARY: N errors` as NVIDIA's compute-sanitizer does. Reports go
//! to stderr, so a correct program's output is unchanged.

pub mod memcheck;
pub mod racecheck;

use std::ffi::{c_char, c_void};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

pub use cucc_cpuify::emit_c::Sanitize;

use crate::kernel::CuccLaunch;

/// The environment variable naming the mode.
pub const ENV: &str = "CUCC_SANITIZE";

/// Prefix of every report line (compute-sanitizer's).
pub(crate) const PREFIX: &str = "=========";

static ERRORS: AtomicU64 = AtomicU64::new(0);
static WARNINGS: AtomicU64 = AtomicU64::new(0);

/// The mode `CUCC_SANITIZE` selects (read once; an unknown value is
/// reported and runs the program unchecked).
pub fn mode() -> Sanitize {
    static MODE: OnceLock<Sanitize> = OnceLock::new();
    *MODE.get_or_init(|| {
        let value = std::env::var(ENV).unwrap_or_default();
        let mode = match Sanitize::parse(&value) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("cucc: {ENV}: {e}; running without checks");
                Sanitize::Off
            }
        };
        if mode != Sanitize::Off {
            eprintln!("{PREFIX} CUCC-SANITIZER ({})", mode.name());
            // SAFETY: registers a plain function with no arguments.
            unsafe { libc::atexit(summary) };
        }
        mode
    })
}

static CHECKED: std::sync::Mutex<Vec<[u8; 16]>> = std::sync::Mutex::new(Vec::new());
static UNCHECKED: std::sync::Mutex<Vec<[u8; 16]>> = std::sync::Mutex::new(Vec::new());

/// Records that cucc module `id` runs checked kernels (rebuilt from its IR).
pub(crate) fn note_checked(id: [u8; 16]) {
    crate::sync::lock(&CHECKED).push(id);
}

/// Under a mode, warns once per cucc module whose kernels run unchecked
/// (its object embeds no IR: separately compiled, `-rdc`).
pub(crate) fn warn_if_unchecked(id: [u8; 16], kernel: &str) {
    if mode() == Sanitize::Off || crate::sync::lock(&CHECKED).contains(&id) {
        return;
    }
    let mut unchecked = crate::sync::lock(&UNCHECKED);
    if !unchecked.contains(&id) {
        unchecked.push(id);
        eprintln!(
            "{PREFIX} Warning: the kernels of the device object holding `{}` run unchecked \
             (it carries no IR to rebuild them from: built with -rdc?)",
            crate::profile::demangle(kernel)
        );
    }
}

/// Errors reported so far.
pub fn error_count() -> u64 {
    ERRORS.load(Ordering::Relaxed)
}

/// Counts one reported error.
pub(crate) fn count_error() {
    ERRORS.fetch_add(1, Ordering::Relaxed);
}

/// Counts one reported warning (a hazard whose outcome does not depend on
/// the order of the accesses).
pub(crate) fn count_warning() {
    WARNINGS.fetch_add(1, Ordering::Relaxed);
}

extern "C" fn summary() {
    let n = error_count();
    let w = WARNINGS.load(Ordering::Relaxed);
    if w > 0 {
        eprintln!(
            "{PREFIX} {w} warning{} (hazards whose threads wrote the same value)",
            if w == 1 { "" } else { "s" }
        );
    }
    eprintln!(
        "{PREFIX} ERROR SUMMARY: {n} error{}",
        if n == 1 { "" } else { "s" }
    );
}

/// An access site as the emitted C describes it (`cucc_san_site`), and
/// its `flags` bits.
pub use cucc_cpuify::abi::{SanSite as Site, SITE_ATOMIC, SITE_SHARED, SITE_WRITE};

/// Lossy text of a C string (empty for NULL).
///
/// # Safety
/// `s` must be NULL or NUL-terminated.
unsafe fn text(s: *const c_char) -> String {
    if s.is_null() {
        return String::new();
    }
    // SAFETY: caller promises a NUL-terminated string.
    unsafe { std::ffi::CStr::from_ptr(s) }
        .to_string_lossy()
        .into_owned()
}

/// The readable parts of a site.
struct SiteText {
    kernel: String,
    place: String,
    what: String,
    flags: u32,
}

impl SiteText {
    /// # Safety
    /// `s` must be NULL or a site emitted by cucc.
    unsafe fn of(s: *const Site) -> SiteText {
        if s.is_null() {
            return SiteText {
                kernel: "?".into(),
                place: String::new(),
                what: String::new(),
                flags: 0,
            };
        }
        // SAFETY: a static site of the emitted C.
        let s = unsafe { &*s };
        // SAFETY: its strings are C literals.
        unsafe {
            SiteText {
                kernel: crate::profile::demangle(&text(s.kernel)),
                place: text(s.place),
                what: text(s.what),
                flags: s.flags,
            }
        }
    }

    /// `kernel (file:line)`.
    fn at(&self) -> String {
        if self.place.is_empty() {
            self.kernel.clone()
        } else {
            format!("{} ({})", self.kernel, self.place)
        }
    }
}

/// `(x,y,z)` of linear index `i` in extents `dims`.
fn coords(i: u32, dims: [u32; 3]) -> String {
    let (x, y) = (dims[0].max(1), dims[1].max(1));
    format!("({},{},{})", i % x, i / x % y, i / x / y)
}

/// `thread (x,y,z) in block (x,y,z)` for a check's linear ids.
///
/// # Safety
/// `l` must be NULL or the launch description of the running entry.
unsafe fn who(l: *const c_void, blk: u32, thr: u32) -> String {
    if l.is_null() {
        return "an unknown thread".into();
    }
    // SAFETY: the entry's launch description.
    let l = unsafe { &*(l as *const CuccLaunch) };
    let t = if thr == u32::MAX {
        "every thread (code shared by the block's threads)".to_string()
    } else {
        format!("thread {}", coords(thr, l.block))
    };
    format!("{t} in block {}", coords(blk, l.grid))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_of_linear_ids() {
        assert_eq!(coords(0, [4, 2, 1]), "(0,0,0)");
        assert_eq!(coords(5, [4, 2, 1]), "(1,1,0)");
        assert_eq!(coords(9, [4, 2, 2]), "(1,0,1)");
        // Zero extents (never launched) do not divide by zero.
        assert_eq!(coords(3, [0, 0, 0]), "(0,0,3)");
    }
}
