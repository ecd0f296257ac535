//! The simulated RACER array processor as a CUDA device
//! (`CUCC_DEVICE=racer`, `crate::devices`).
//!
//! A launch on it lowers the kernel's IR (`crate::kernel_ir`: embedded IR
//! or translated PTX) to a stream graph with the launch shape and scalar
//! arguments as constants, places it on one 4 x 4 block and replicates it
//! over the array (`cucc_racer::launch`); each replica runs on the
//! handshake simulator over a contiguous slice of the threads, and the
//! kernel's time is the slowest replica's cycles at the machine
//! description's clock. The buffers the graph streams are read from device
//! memory as elements of the type the graph gives them, and the elements
//! the kernel changed are written back.
//!
//! What the lowering rejects, or a graph that does not fit a block, fails
//! the launch with `cudaErrorNoKernelImageForDevice` and the diagnostic on
//! stderr (shared memory included: the lowering names its use and line); nothing runs on the CPU instead. A simulator failure (deadlock
//! with its cycle and stalled nodes, a tag mix-up, the cycle limit) is
//! `cudaErrorLaunchFailure`, a stream element outside its buffer
//! `cudaErrorIllegalAddress`, both sticky like a faulting kernel's.

pub mod buffers;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::ffi::c_int;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use cucc_ir::{FloatKind, Module, Type};
use cucc_racer::launch::{prepare, Prepared, Report};
use cucc_racer::lower::{Arg, Options};
use cucc_racer::machine::Machine;

use crate::errors::{set_sticky, CudaResult, Error};
use crate::ffi::cudaDeviceProp;
use crate::kernel::KernelImpl;
use crate::registry::{Function, ModuleId};
use crate::sim_device::{
    cannot_run, check_param_count, derived_properties, kept_ir, read_args, set_clock, sign_extend,
    RunInfo, SimLaunch,
};
use crate::sync::lock;
use buffers::Bound;

/// Cycles one replica may run in one launch before the simulator stops
/// it: only a kernel whose loop does not end reaches it.
pub const CYCLE_LIMIT: u64 = 1 << 32;

/// The machine description (`cucc-racer`'s `racer-v1.toml`).
pub fn machine() -> &'static Machine {
    static M: OnceLock<Machine> = OnceLock::new();
    M.get_or_init(Machine::racer_v1)
}

/// The model's clock in Hz.
pub fn clock_hz() -> u64 {
    u64::from(machine().clock_mhz.max(1)) * 1_000_000
}

/// Simulated cycles the device has run, all launches together.
static CYCLES: AtomicU64 = AtomicU64::new(0);

/// The device's simulated time in nanoseconds.
pub fn clock_ns() -> u64 {
    (u128::from(CYCLES.load(Ordering::Acquire)) * 1_000_000_000 / u128::from(clock_hz())) as u64
}

/// The device's `cudaDeviceProp` (docs/racer.md lists each value's source).
pub fn properties() -> &'static cudaDeviceProp {
    static PROPS: OnceLock<cudaDeviceProp> = OnceLock::new();
    PROPS.get_or_init(build_properties)
}

fn build_properties() -> cudaDeviceProp {
    let m = machine();
    // CUDA's launch limits hold (a launch is a tagged element stream); the
    // rest describes the array.
    let name = format!(
        "RACER array processor ({}x{} PEs, simulated)",
        m.array_rows, m.array_cols
    );
    // A PCI address of its own (the Snitch cluster's is the CPU's + 1).
    let mut p = derived_properties(&name, b"cucc-racer-array", 2);
    // A block of PEs holds one replica of the program.
    p.multiProcessorCount = c_int::try_from(m.blocks()).unwrap_or(c_int::MAX);
    p.sharedMemPerBlock = 0;
    p.sharedMemPerMultiprocessor = 0;
    p.sharedMemPerBlockOptin = 0;
    p.memoryBusWidth = c_int::try_from(m.stream_bits).unwrap_or(c_int::MAX);
    p.warpSize = 1;
    // The memory units run at the stream rate.
    set_clock(&mut p, clock_hz());
    p
}

/// What a prepared launch depends on.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Key {
    module: ModuleId,
    kernel: String,
    grid: u32,
    block: u32,
    /// Scalar argument bits by position (pointers as 0).
    args: Vec<u64>,
}

type Outcome = Arc<Result<Prepared, String>>;

/// A kernel module parsed from its recorded source, or why not.
type Parsed = Arc<Result<Module, String>>;

static MODULES: Mutex<Option<HashMap<ModuleId, Parsed>>> = Mutex::new(None);
static PREPARED: Mutex<Option<HashMap<Key, Outcome>>> = Mutex::new(None);

fn module(id: ModuleId, source: &crate::kernel_ir::Source) -> Parsed {
    if let Some(m) = lock(&MODULES).get_or_insert_with(HashMap::new).get(&id) {
        return Arc::clone(m);
    }
    let built = Arc::new(crate::kernel_ir::parse(source).and_then(scalar_passes));
    Arc::clone(
        lock(&MODULES)
            .get_or_insert_with(HashMap::new)
            .entry(id)
            .or_insert(built),
    )
}

/// Runs the lowering's own scalar passes (inline, mem2reg, canonicalize)
/// on every kernel up front, so that PTX's parameters, which the
/// translation keeps in private variables, are seen used as addresses.
fn scalar_passes(mut m: Module) -> Result<Module, String> {
    let kernels: Vec<_> = m
        .functions
        .iter()
        .filter(|(_, f)| f.kind == cucc_ir::FunctionKind::Kernel)
        .map(|(id, _)| id)
        .collect();
    let mut remarks = cucc_cpuify::remarks::Remarks::default();
    for id in kernels {
        cucc_cpuify::passes::inline_calls(&mut m, id).map_err(|e| e.to_string())?;
        cucc_cpuify::passes::mem2reg(&mut m, id, &mut remarks).map_err(|e| e.to_string())?;
        cucc_cpuify::passes::canonicalize(&mut m, id).map_err(|e| e.to_string())?;
    }
    Ok(m)
}

/// What each kernel parameter is, as the lowering takes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// A buffer: a pointer, or PTX's `u64` used only as an address.
    Buffer,
    /// An integer of this many bits.
    Int(u32),
    /// A double.
    F64,
    /// A float (passed as its double value; the lowering rejects f32 use).
    F32,
}

/// The kernel's parameter kinds, if the module has it.
pub fn param_kinds(m: &Module, kernel: &str) -> Option<Vec<ParamKind>> {
    let f = &m.functions[m.function(kernel)?];
    let buffers = cucc_snitch::compile::buffer_params(m, kernel)?;
    Some(
        f.regions[f.body]
            .args
            .iter()
            .zip(buffers)
            .map(|(&a, buffer)| match &m.types[f.values[a].ty] {
                _ if buffer => ParamKind::Buffer,
                Type::Int(bits) => ParamKind::Int(u32::from(*bits)),
                Type::Float(FloatKind::F32) => ParamKind::F32,
                Type::Float(FloatKind::F64) => ParamKind::F64,
                _ => ParamKind::Buffer,
            })
            .collect(),
    )
}

/// The lowering's arguments from the values the host passed.
pub fn lowering_args(kinds: &[ParamKind], values: &[u64], sizes: &[u32]) -> Vec<Arg> {
    kinds
        .iter()
        .zip(values)
        .zip(sizes)
        .map(|((k, &v), &size)| match k {
            ParamKind::Buffer => Arg::Buffer,
            ParamKind::Int(_) => Arg::Int(sign_extend(v, size.min(8) * 8)),
            ParamKind::F64 => Arg::F64(f64::from_bits(v)),
            ParamKind::F32 => Arg::F64(f64::from(f32::from_bits(v as u32))),
        })
        .collect()
}

/// Launches `f` on the RACER device: lowers and places it for this launch
/// (or finds it prepared) and queues the run on `stream`.
///
/// # Safety
/// `l`'s argument pointers must be valid as [`SimLaunch`] says.
pub(crate) unsafe fn launch(f: &Function, k: &KernelImpl, l: SimLaunch<'_>) -> CudaResult {
    let SimLaunch(grid, block, args, shared, stream) = l;
    let name = crate::profile::demangle(&k.name);
    let fail = |code: Error, why: &str| cannot_run(&name, "the RACER array", code, why);
    if grid.y != 1 || grid.z != 1 || block.y != 1 || block.z != 1 {
        return Err(fail(
            Error::NoKernelImageForDevice,
            "the lowering takes 1-D grids of 1-D blocks (the thread index is the element tag)",
        ));
    }
    // Shared memory is left to the lowering, whose diagnostic names the
    // construct and its line; bytes requested but unused are harmless.
    let _ = shared;
    let (id, source) = kept_ir(f, fail)?;
    let m = module(id, &source);
    let m = m
        .as_ref()
        .as_ref()
        .map_err(|e| fail(Error::NoKernelImageForDevice, e))?;
    let kinds = param_kinds(m, &k.name).ok_or_else(|| {
        fail(
            Error::NoKernelImageForDevice,
            &format!("the module has no kernel `{}`", k.name),
        )
    })?;
    check_param_count(kinds.len(), k.param_sizes.len(), fail)?;
    // SAFETY: the caller's contract.
    let values = unsafe { read_args(args, &k.param_sizes)? };
    let key = Key {
        module: id,
        kernel: k.name.clone(),
        grid: grid.x,
        block: block.x,
        args: kinds
            .iter()
            .zip(&values)
            .map(|(k, &v)| if *k == ParamKind::Buffer { 0 } else { v })
            .collect(),
    };
    let prepared = {
        let cached = lock(&PREPARED)
            .get_or_insert_with(HashMap::new)
            .get(&key)
            .cloned();
        match cached {
            Some(p) => p,
            None => {
                let opts = Options {
                    grid: grid.x,
                    block: block.x,
                    args: lowering_args(&kinds, &values, &k.param_sizes),
                    rotate: true,
                    split_branches: false,
                };
                let built =
                    Arc::new(prepare(m, &k.name, &opts, machine()).map_err(|e| e.to_string()));
                Arc::clone(
                    lock(&PREPARED)
                        .get_or_insert_with(HashMap::new)
                        .entry(key)
                        .or_insert(built),
                )
            }
        }
    };
    let p = match prepared.as_ref() {
        Ok(p) => p,
        Err(diag) => {
            eprintln!("{diag}");
            return Err(fail(
                Error::NoKernelImageForDevice,
                "the RACER lowering or placement rejected it (above)",
            ));
        }
    };
    let bound = buffers::bind(p, &kinds, &values).map_err(|e| match e {
        buffers::BindError::Unknown { param, ptr } => fail(
            Error::InvalidValue,
            &format!("argument {param} ({ptr:#x}) is not device memory the runtime knows"),
        ),
        buffers::BindError::Types(msg) => fail(Error::NoKernelImageForDevice, &msg),
    })?;
    let run = Run {
        info: RunInfo::new(name, k, grid, block),
        prepared: Arc::clone(&prepared),
        bound,
    };
    crate::stream::submit(stream, move || run.execute())?;
    Ok(())
}

/// A queued run.
struct Run {
    info: RunInfo,
    prepared: Outcome,
    bound: Vec<Bound>,
}

impl Run {
    fn execute(self) {
        let Ok(p) = self.prepared.as_ref() else {
            return;
        };
        if crate::errors::sticky().is_some() {
            return;
        }
        let t = std::time::Instant::now();
        let report = match run_bound(p, &self.bound) {
            Ok(r) => r,
            Err((code, why)) => {
                eprintln!(
                    "cucc runtime: kernel `{}` failed on the RACER array: {why}",
                    self.info.name
                );
                set_sticky(code);
                return;
            }
        };
        CYCLES.fetch_add(report.cycles, Ordering::AcqRel);
        if self.info.profiled {
            let host = t.elapsed();
            self.info.profile(host);
            crate::profile::racer_kernel(clock_hz(), &self.info.mangled, &report, host);
        }
    }
}

/// Reads the bound buffers, runs the replicas and writes the changed
/// elements back; the error code and message on failure.
fn run_bound(p: &Prepared, bound: &[Bound]) -> Result<Report, (Error, String)> {
    // SAFETY: each range lies in an allocation the table held at launch;
    // `cudaFree` waits for the stream first.
    let (mut values, before) = unsafe { buffers::read(bound) };
    let report = p
        .run(machine(), &mut values, CYCLE_LIMIT)
        .map_err(|e| match e {
            cucc_racer::launch::RunError::Bind(m) => (Error::IllegalAddress, m),
            e @ cucc_racer::launch::RunError::Sim { .. } => (Error::LaunchFailure, e.to_string()),
        })?;
    // SAFETY: as above.
    unsafe { buffers::write_back(bound, &values, &before) }
        .map_err(|m| (Error::LaunchFailure, m))?;
    Ok(report)
}
