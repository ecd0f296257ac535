//! Profile mode: `CUCC_PROFILE=1 ./app` prints, when the program exits, a
//! summary in the manner of nvprof/nsys: per kernel the launches, total,
//! mean, shortest and longest time, blocks and threads; per API category
//! (copies by direction, sets, synchronisation, allocation, freeing) the
//! calls, time and bytes, each table sorted by time.
//!
//! Kernel time runs from the start to the end of a launch on the stream
//! thread (queueing excluded). Copies and sets count the time spent copying
//! or setting, wherever that runs; synchronisation, allocation and freeing
//! count the time the calling thread spent in the call.
//!
//! When the variable is unset the cost is one relaxed atomic load per
//! instrumented call ([`enabled`]).

use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use crate::sync::lock;

/// What an API-side measurement counts towards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    /// `cudaMemcpy*` host to device.
    MemcpyHtoD,
    /// `cudaMemcpy*` device to host.
    MemcpyDtoH,
    /// `cudaMemcpy*` device to device.
    MemcpyDtoD,
    /// `cudaMemcpy*` host to host.
    MemcpyHtoH,
    /// `cudaMemset*`.
    Memset,
    /// `cudaDeviceSynchronize`, `cudaStreamSynchronize`, `cudaEventSynchronize`.
    Synchronize,
    /// `cudaMalloc*`, `cudaHostAlloc`, `cudaMallocHost`.
    Malloc,
    /// `cudaFree`, `cudaFreeHost`.
    Free,
}

const CATEGORIES: usize = 8;

impl Category {
    fn label(self) -> &'static str {
        match self {
            Category::MemcpyHtoD => "memcpy HtoD",
            Category::MemcpyDtoH => "memcpy DtoH",
            Category::MemcpyDtoD => "memcpy DtoD",
            Category::MemcpyHtoH => "memcpy HtoH",
            Category::Memset => "memset",
            Category::Synchronize => "synchronize",
            Category::Malloc => "malloc",
            Category::Free => "free",
        }
    }

    const ALL: [Category; CATEGORIES] = [
        Category::MemcpyHtoD,
        Category::MemcpyDtoH,
        Category::MemcpyDtoD,
        Category::MemcpyHtoH,
        Category::Memset,
        Category::Synchronize,
        Category::Malloc,
        Category::Free,
    ];

    /// The copy category for a copy's sides.
    pub fn memcpy(dst_device: bool, src_device: bool) -> Category {
        match (dst_device, src_device) {
            (true, false) => Category::MemcpyHtoD,
            (false, true) => Category::MemcpyDtoH,
            (true, true) => Category::MemcpyDtoD,
            (false, false) => Category::MemcpyHtoH,
        }
    }
}

/// 0: not decided yet, 1: off, 2: on.
static STATE: AtomicU8 = AtomicU8::new(0);

/// Whether `CUCC_PROFILE` asks for a profile (set and not `0`).
#[inline]
pub fn enabled() -> bool {
    match STATE.load(Ordering::Relaxed) {
        1 => false,
        2 => true,
        _ => decide(),
    }
}

#[cold]
fn decide() -> bool {
    let on = std::env::var_os("CUCC_PROFILE").is_some_and(|v| !v.is_empty() && v != "0");
    // The first thread to decide registers the report.
    if STATE
        .compare_exchange(
            0,
            if on { 2 } else { 1 },
            Ordering::AcqRel,
            Ordering::Relaxed,
        )
        .is_ok()
        && on
    {
        lock(&DATA).start = Some(Instant::now());
        // SAFETY: registers a plain C function to run at exit.
        unsafe { libc::atexit(report_at_exit) };
    }
    STATE.load(Ordering::Relaxed) == 2
}

#[derive(Default, Clone)]
struct KernelStats {
    launches: u64,
    total: Duration,
    min: Option<Duration>,
    max: Duration,
    blocks: u64,
    threads: u64,
}

#[derive(Default, Clone, Copy)]
struct ApiStats {
    calls: u64,
    total: Duration,
    bytes: u64,
}

/// A simulated device's kernel: launches and the model's counters.
#[derive(Default, Clone)]
struct SimStats {
    clock_hz: u64,
    launches: u64,
    /// The slowest core's cycles, summed over launches.
    cycles: u64,
    /// Every core's cycles, summed over cores and launches.
    core_cycles: u64,
    fpu_issues: u64,
    issues: u64,
    cores: u64,
    blocks: u64,
    threads: u64,
    /// Host time the simulation took.
    host: Duration,
}

/// A RACER kernel: launches and the array's counters.
#[derive(Default, Clone)]
struct RacerStats {
    clock_hz: u64,
    launches: u64,
    /// The slowest replica's cycles, summed over launches.
    cycles: u64,
    elements_in: u64,
    elements_out: u64,
    replicas: u64,
    /// Utilisations weighted by each launch's cycles.
    pe_weighted: f64,
    route_weighted: f64,
}

struct Data {
    start: Option<Instant>,
    /// RACER kernels by name.
    racer: Option<HashMap<String, RacerStats>>,
    kernels: Option<HashMap<String, KernelStats>>,
    /// By (device, kernel).
    simulated: Option<HashMap<(&'static str, String), SimStats>>,
    api: [ApiStats; CATEGORIES],
}

static DATA: Mutex<Data> = Mutex::new(Data {
    start: None,
    kernels: None,
    simulated: None,
    racer: None,
    api: [ApiStats {
        calls: 0,
        total: Duration::ZERO,
        bytes: 0,
    }; CATEGORIES],
});

/// Records one finished launch of the kernel with device name `name`.
pub fn kernel(name: &str, blocks: u64, threads: u64, elapsed: Duration) {
    let mut data = lock(&DATA);
    let kernels = data.kernels.get_or_insert_with(HashMap::new);
    let stats = match kernels.get_mut(name) {
        Some(s) => s,
        None => kernels.entry(name.to_owned()).or_default(),
    };
    stats.launches += 1;
    stats.total += elapsed;
    stats.min = Some(stats.min.map_or(elapsed, |m| m.min(elapsed)));
    stats.max = stats.max.max(elapsed);
    stats.blocks += blocks;
    stats.threads += threads;
}

/// Records one finished launch on a simulated device: its counters
/// (`crate::snitch::LaunchCounters`) and the host time the simulation took.
#[allow(clippy::too_many_arguments)]
pub fn simulated_kernel(
    device: &'static str,
    clock_hz: u64,
    name: &str,
    blocks: u64,
    threads: u64,
    c: &crate::snitch::LaunchCounters,
    host: Duration,
) {
    let mut data = lock(&DATA);
    let s = data
        .simulated
        .get_or_insert_with(HashMap::new)
        .entry((device, name.to_owned()))
        .or_default();
    s.clock_hz = clock_hz;
    s.launches += 1;
    s.cycles += c.cycles;
    s.core_cycles += c.core_cycles;
    s.fpu_issues += c.fpu_issues;
    s.issues += c.issues;
    s.cores += u64::from(c.cores);
    s.blocks += blocks;
    s.threads += threads;
    s.host += host;
}

/// Records one finished launch on the RACER device
/// (`cucc_racer::launch::Report`); the host time goes to the kernel table.
pub fn racer_kernel(clock_hz: u64, name: &str, r: &cucc_racer::launch::Report, _host: Duration) {
    let mut data = lock(&DATA);
    let s = data
        .racer
        .get_or_insert_with(HashMap::new)
        .entry(name.to_owned())
        .or_default();
    s.clock_hz = clock_hz;
    s.launches += 1;
    s.cycles += r.cycles;
    s.elements_in += r.elements_in;
    s.elements_out += r.elements_out;
    s.replicas += u64::from(r.replicas);
    s.pe_weighted += r.pe_utilisation * r.cycles as f64;
    s.route_weighted += r.route_utilisation * r.cycles as f64;
}

/// Records one call (or one executed copy or set) of `category`.
pub fn record(category: Category, bytes: u64, elapsed: Duration) {
    let mut data = lock(&DATA);
    let s = &mut data.api[category as usize];
    s.calls += 1;
    s.total += elapsed;
    s.bytes += bytes;
}

/// Times the enclosing scope as one call of a category, when profiling.
pub struct Scope(Option<(Category, Instant)>);

impl Scope {
    /// Starts timing (only when profiling).
    #[inline]
    pub fn new(category: Category) -> Scope {
        Scope(enabled().then(|| (category, Instant::now())))
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        if let Some((c, t)) = self.0 {
            record(c, 0, t.elapsed());
        }
    }
}

/// Wraps copy or set work so that, when profiling, running it is recorded
/// under `category` with `bytes`.
pub fn timed(
    category: Category,
    bytes: usize,
    work: impl FnOnce() + Send + 'static,
) -> impl FnOnce() + Send + 'static {
    let on = enabled();
    move || {
        let t = on.then(Instant::now);
        work();
        if let Some(t) = t {
            record(category, bytes as u64, t.elapsed());
        }
    }
}

extern "C" fn report_at_exit() {
    // Never unwind into the C runtime's exit path.
    let _ = std::panic::catch_unwind(|| eprint!("{}", report()));
}

/// The report as text (what is printed at exit).
pub fn report() -> String {
    let data = lock(&DATA);
    let mut out = String::new();
    let wall = data.start.map_or(Duration::ZERO, |s| s.elapsed());
    let mut kernels: Vec<(String, KernelStats)> = data
        .kernels
        .iter()
        .flatten()
        .map(|(n, s)| (n.clone(), s.clone()))
        .collect();
    let mut simulated: Vec<((&'static str, String), SimStats)> = data
        .simulated
        .iter()
        .flatten()
        .map(|(k, s)| (k.clone(), s.clone()))
        .collect();
    let mut racer: Vec<(String, RacerStats)> = data
        .racer
        .iter()
        .flatten()
        .map(|(k, s)| (k.clone(), s.clone()))
        .collect();
    let api = data.api;
    drop(data);
    racer.sort_by(|a, b| b.1.cycles.cmp(&a.1.cycles).then_with(|| a.0.cmp(&b.0)));
    simulated.sort_by(|a, b| b.1.cycles.cmp(&a.1.cycles).then_with(|| a.0.cmp(&b.0)));
    kernels.sort_by(|a, b| b.1.total.cmp(&a.1.total).then_with(|| a.0.cmp(&b.0)));
    let launches: u64 = kernels.iter().map(|(_, s)| s.launches).sum();
    let _ = writeln!(
        out,
        "==cucc profile== {} kernels, {launches} launches, {:.3} s since the first CUDA call",
        kernels.len(),
        wall.as_secs_f64()
    );
    let _ = writeln!(
        out,
        "==cucc profile== kernels (time from start to end of each launch):"
    );
    let _ = writeln!(
        out,
        "{:>7} {:>12} {:>9} {:>11} {:>11} {:>11} {:>12} {:>14}  Name",
        "Time(%)", "Total(ms)", "Launches", "Mean(us)", "Min(us)", "Max(us)", "Blocks", "Threads"
    );
    let kernel_total: f64 = kernels.iter().map(|(_, s)| s.total.as_secs_f64()).sum();
    for (name, s) in &kernels {
        let total = s.total.as_secs_f64();
        let _ = writeln!(
            out,
            "{:>7.2} {:>12.3} {:>9} {:>11.2} {:>11.2} {:>11.2} {:>12} {:>14}  {}",
            percent(total, kernel_total),
            total * 1e3,
            s.launches,
            total * 1e6 / s.launches.max(1) as f64,
            s.min.unwrap_or_default().as_secs_f64() * 1e6,
            s.max.as_secs_f64() * 1e6,
            s.blocks,
            s.threads,
            demangle(name)
        );
    }
    render_simulated(&mut out, &simulated);
    render_racer(&mut out, &racer);
    let _ = writeln!(
        out,
        "==cucc profile== API (copies and sets: time copying or setting; others: time in the call):"
    );
    let _ = writeln!(
        out,
        "{:>7} {:>12} {:>9} {:>11} {:>14}  Category",
        "Time(%)", "Total(ms)", "Calls", "Mean(us)", "Bytes"
    );
    let mut rows: Vec<(Category, ApiStats)> = Category::ALL
        .iter()
        .map(|&c| (c, api[c as usize]))
        .filter(|(_, s)| s.calls > 0)
        .collect();
    rows.sort_by_key(|r| std::cmp::Reverse(r.1.total));
    let api_total: f64 = rows.iter().map(|(_, s)| s.total.as_secs_f64()).sum();
    for (c, s) in rows {
        let total = s.total.as_secs_f64();
        let _ = writeln!(
            out,
            "{:>7.2} {:>12.3} {:>9} {:>11.2} {:>14}  {}",
            percent(total, api_total),
            total * 1e3,
            s.calls,
            total * 1e6 / s.calls.max(1) as f64,
            s.bytes,
            c.label()
        );
    }
    out
}

/// The simulated devices' kernels: model time and counters (the kernel
/// table above lists their launches with the host time the simulation took).
fn render_simulated(out: &mut String, rows: &[((&'static str, String), SimStats)]) {
    if rows.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "==cucc profile== simulated kernels (model time: the slowest core's cycles; counters summed over cores):"
    );
    let _ = writeln!(
        out,
        "{:<7} {:>12} {:>9} {:>14} {:>14} {:>14} {:>8} {:>6} {:>6}  Name",
        "Device",
        "Time(us)",
        "Launches",
        "Cycles",
        "CoreCycles",
        "FPUIssues",
        "FPUOcc",
        "IPC",
        "Cores"
    );
    for ((device, name), s) in rows {
        let us = s.cycles as f64 * 1e6 / s.clock_hz.max(1) as f64;
        let _ = writeln!(
            out,
            "{:<7} {:>12.3} {:>9} {:>14} {:>14} {:>14} {:>8.3} {:>6.3} {:>6.2}  {}",
            device,
            us,
            s.launches,
            s.cycles,
            s.core_cycles,
            s.fpu_issues,
            s.fpu_issues as f64 / s.core_cycles.max(1) as f64,
            s.issues as f64 / s.core_cycles.max(1) as f64,
            s.cores as f64 / s.launches.max(1) as f64,
            demangle(name)
        );
    }
}

/// The RACER kernels: model time (the slowest replica), memory-unit
/// elements, and how busy the placed operators and routes were.
fn render_racer(out: &mut String, rows: &[(String, RacerStats)]) {
    if rows.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "==cucc profile== RACER kernels (model time: the slowest replica's cycles; utilisation: firings per operator and element-hops per route register over the run's element slots):"
    );
    let _ = writeln!(
        out,
        "{:>12} {:>9} {:>14} {:>12} {:>12} {:>8} {:>7} {:>7}  Name",
        "Time(us)", "Launches", "Cycles", "ElementsIn", "ElementsOut", "Replicas", "PE%", "Route%"
    );
    for (name, s) in rows {
        let us = s.cycles as f64 * 1e6 / s.clock_hz.max(1) as f64;
        let w = s.cycles.max(1) as f64;
        let _ = writeln!(
            out,
            "{:>12.3} {:>9} {:>14} {:>12} {:>12} {:>8.1} {:>7.2} {:>7.2}  {}",
            us,
            s.launches,
            s.cycles,
            s.elements_in,
            s.elements_out,
            s.replicas as f64 / s.launches.max(1) as f64,
            s.pe_weighted * 100.0 / w,
            s.route_weighted * 100.0 / w,
            demangle(name)
        );
    }
}

fn percent(part: f64, whole: f64) -> f64 {
    if whole > 0.0 {
        part * 100.0 / whole
    } else {
        0.0
    }
}

type CxaDemangle =
    unsafe extern "C" fn(*const c_char, *mut c_char, *mut usize, *mut c_int) -> *mut c_char;

/// The C++ runtime's `__cxa_demangle`: the process's own if it has one
/// (C++ programs do), else from loading `libstdc++.so.6` (only at report time).
fn cxa_demangle() -> Option<CxaDemangle> {
    // SAFETY: symbol lookups in the process's global scope or in a library
    // loaded here and never unloaded.
    let sym = unsafe {
        let mut sym = libc::dlsym(libc::RTLD_DEFAULT, c"__cxa_demangle".as_ptr());
        if sym.is_null() {
            let lib = libc::dlopen(
                c"libstdc++.so.6".as_ptr(),
                libc::RTLD_NOW | libc::RTLD_LOCAL,
            );
            if !lib.is_null() {
                sym = libc::dlsym(lib, c"__cxa_demangle".as_ptr());
            }
        }
        sym
    };
    // SAFETY: `__cxa_demangle` has this signature (Itanium C++ ABI).
    (!sym.is_null()).then(|| unsafe { std::mem::transmute::<*mut c_void, CxaDemangle>(sym) })
}

/// The demangled form of a C++ name, or the name itself when it is not
/// mangled or no demangler is at hand.
pub(crate) fn demangle(name: &str) -> String {
    static DEMANGLER: OnceLock<Option<CxaDemangle>> = OnceLock::new();
    if !name.starts_with("_Z") {
        return name.to_owned();
    }
    let Some(f) = *DEMANGLER.get_or_init(cxa_demangle) else {
        return name.to_owned();
    };
    let Ok(c_name) = CString::new(name) else {
        return name.to_owned();
    };
    let mut status: c_int = 0;
    // SAFETY: a NUL-terminated name; NULL buffer asks for a malloc'd result.
    let out = unsafe {
        f(
            c_name.as_ptr(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            &mut status,
        )
    };
    if out.is_null() {
        return name.to_owned();
    }
    // SAFETY: on success the result is a malloc'd NUL-terminated string.
    let text = unsafe { CStr::from_ptr(out) }
        .to_string_lossy()
        .into_owned();
    // SAFETY: allocated by `__cxa_demangle` with malloc.
    unsafe { libc::free(out as *mut c_void) };
    if status == 0 {
        text
    } else {
        name.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_lists_recorded_kernels_and_categories() {
        kernel("_Z4axpyPfS_f", 4, 1024, Duration::from_micros(30));
        kernel("_Z4axpyPfS_f", 4, 1024, Duration::from_micros(10));
        record(Category::MemcpyHtoD, 4096, Duration::from_micros(5));
        let r = report();
        let row = r.lines().find(|l| l.contains("axpy")).expect("kernel row");
        let cols: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(cols[2], "2", "{row}");
        assert_eq!(cols[6], "8", "{row}");
        assert_eq!(cols[7], "2048", "{row}");
        assert!(r.lines().any(|l| l.ends_with("memcpy HtoD")), "{r}");
    }

    #[test]
    fn unmangled_names_stay() {
        assert_eq!(demangle("plain_c_kernel"), "plain_c_kernel");
    }
}
