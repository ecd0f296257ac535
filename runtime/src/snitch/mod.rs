//! The simulated Snitch cluster as a CUDA device (`CUCC_DEVICE=snitch`,
//! `crate::devices`).
//!
//! A launch on it is compiled for the Snitch cores from the kernel's IR
//! ([`kernels`]) with the launch shape and integer arguments as constants,
//! and runs on `cucc-snitch`'s cycle model: the blocks are dealt out to the
//! cluster's [`CORES`] compute cores (round robin along the grid's
//! outermost dimension of more than one block), each core's share compiled
//! as a program of its own; the kernel's buffers are copied into the
//! simulated TCDM before the run and the bytes that changed back after
//! ([`placement`]). The cores run one after another in the simulator on
//! the one TCDM, each from cycle 0: blocks do not communicate (the compiler
//! rejects atomics and barriers), so the result is that of running them
//! side by side, and the kernel's time is the slowest core's cycles. TCDM
//! bank conflicts between cores, the DMA core and instruction fetch are not
//! modelled, and a launch has no fixed overhead in the model.
//!
//! What the compiler rejects fails the launch with
//! `cudaErrorNoKernelImageForDevice` and its diagnostic on stderr; data that
//! does not fit fails it with `cudaErrorLaunchOutOfResources`. Nothing runs
//! on the CPU instead. Launches go through the streams like the CPU's
//! (the work is a stream task), and the device's simulated clock
//! ([`clock_ns`]) advances by each kernel's time; events recorded while the
//! Snitch device is current read that clock.

pub mod kernels;
pub mod placement;

use std::ffi::c_int;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use cucc_snitch::isa::XReg;
use cucc_snitch::sim::{Counters, Machine, ModelParams, SimError};

use crate::errors::{set_sticky, CudaResult, Error};
use crate::ffi::cudaDeviceProp;
use crate::kernel::KernelImpl;
use crate::registry::Function;
use crate::sim_device::{
    cannot_run, check_param_count, copy_back_changes, derived_properties, kept_ir, read_args,
    set_clock, sign_extend, RunInfo, SimLaunch,
};
use kernels::{ArgKind, Compiled, Key};
use placement::{PlaceError, PtrArg, Region, Reserve};

/// Compute cores of a Snitch cluster (snitch_cluster's default
/// configuration: eight compute cores and one DMA core).
pub const CORES: u32 = 8;
/// Stack bytes each core keeps at the top of the TCDM (the compiled code
/// uses 8 bytes below `sp` for f64 constants).
pub const STACK_PER_CORE: usize = 64;
/// Instructions a core may execute in one launch (FREP repetitions
/// included) before the simulator stops it: compiled loops have constant
/// counts, so only a huge launch reaches it.
pub const INSTRUCTION_LIMIT: u64 = 1 << 34;

/// The cycle model's parameters (`cucc-snitch`'s defaults).
pub fn model() -> &'static ModelParams {
    static PARAMS: OnceLock<ModelParams> = OnceLock::new();
    PARAMS.get_or_init(ModelParams::default)
}

/// Simulated cycles the device has run, all launches together.
static CYCLES: AtomicU64 = AtomicU64::new(0);

/// The device's simulated time in nanoseconds: the cycles of the kernels
/// it has finished at the model's clock.
pub fn clock_ns() -> u64 {
    let hz = u128::from(model().clock_hz.max(1));
    (u128::from(CYCLES.load(Ordering::Acquire)) * 1_000_000_000 / hz) as u64
}

/// The device's `cudaDeviceProp` (docs/snitch.md lists each value's source).
pub fn properties() -> &'static cudaDeviceProp {
    static PROPS: OnceLock<cudaDeviceProp> = OnceLock::new();
    PROPS.get_or_init(build_properties)
}

fn build_properties() -> cudaDeviceProp {
    let params = model();
    // Start from the CPU device's limits (block and grid sizes, texture
    // limits): the compiler runs a block's threads as loops, so CUDA's
    // limits hold; then describe the cluster.
    let name = format!("Snitch cluster ({CORES} cores, simulated)");
    // The CPU's bus, the next device number.
    let mut p = derived_properties(&name, b"cucc-snitch-clus", 1);
    let tcdm = params.tcdm_size;
    p.multiProcessorCount = CORES as c_int;
    p.sharedMemPerBlock = tcdm;
    p.sharedMemPerMultiprocessor = tcdm;
    p.sharedMemPerBlockOptin = tcdm;
    p.memoryBusWidth = 64;
    p.maxThreadsPerMultiProcessor = p.maxThreadsPerBlock;
    p.maxBlocksPerMultiProcessor = 1;
    p.regsPerBlock = 32;
    p.regsPerMultiprocessor = 32;
    // The TCDM runs at the core clock.
    set_clock(&mut p, params.clock_hz);
    p
}

/// Launches `f` on the Snitch device: compiles (or finds) its programs for
/// this launch and queues the run on `stream`.
///
/// # Safety
/// `l`'s argument pointers must be valid as [`SimLaunch`] says.
pub(crate) unsafe fn launch(f: &Function, k: &KernelImpl, l: SimLaunch<'_>) -> CudaResult {
    let SimLaunch(grid, block, args, shared, stream) = l;
    let name = crate::profile::demangle(&k.name);
    let fail = |code: Error, why: &str| cannot_run(&name, "the Snitch cluster", code, why);
    let (id, source) = kept_ir(f, fail)?;
    let sig = kernels::signature(id, &source, &k.name)
        .map_err(|e| fail(Error::NoKernelImageForDevice, &e))?;
    check_param_count(sig.params.len(), k.param_sizes.len(), fail)?;
    // SAFETY: the caller's contract.
    let values = unsafe { read_args(args, &k.param_sizes)? };
    // Pointers: where their buffers go.
    let ptr_args: Vec<PtrArg> = sig
        .params
        .iter()
        .enumerate()
        .filter(|(_, &kind)| kind == ArgKind::Ptr)
        .map(|(i, _)| {
            let ptr = values[i] as usize;
            PtrArg {
                param: i,
                ptr,
                alloc: crate::alloc_table::find(ptr).map(|(s, a)| (s, a.size)),
            }
        })
        .collect();
    let g = [grid.x, grid.y, grid.z];
    let dim = cucc_snitch::compile::split_dimension(g);
    let active = CORES.min(g[dim]) as usize;
    let params = model();
    let reserve = Reserve {
        shared: (k.static_shared as usize)
            .next_multiple_of(16)
            .saturating_add(shared)
            * active,
        stacks: STACK_PER_CORE * CORES as usize,
    };
    let placed =
        placement::place(&ptr_args, params.tcdm_base, params.tcdm_size, reserve).map_err(|e| {
            match e {
                PlaceError::TooBig(msg) => fail(Error::LaunchOutOfResources, &msg),
                PlaceError::Unknown { param, ptr } => fail(
                    Error::InvalidValue,
                    &format!("argument {param} ({ptr:#x}) is not device memory the runtime knows"),
                ),
            }
        })?;
    let dynamic_shared = u32::try_from(shared).map_err(|_| {
        fail(
            Error::LaunchOutOfResources,
            &format!("{shared} bytes of dynamic shared memory"),
        )
    })?;
    // Integer arguments become constants; the compiler's integers are 32-bit.
    let mut known_ints = [None; 8];
    let mut noalias = vec![false; sig.params.len()];
    for (i, &kind) in sig.params.iter().enumerate() {
        if let ArgKind::Int(bits) = kind {
            let v = sign_extend(values[i], k.param_sizes[i].min(8) * 8);
            let v = i32::try_from(v).map_err(|_| {
                fail(
                    Error::InvalidValue,
                    &format!(
                        "integer argument {i} ({v}) does not fit the cores' 32 bits (i{bits})"
                    ),
                )
            })?;
            if let Some(slot) = known_ints.get_mut(i) {
                *slot = Some(v);
            }
        }
    }
    for (a, &alone) in ptr_args.iter().zip(&placed.noalias) {
        noalias[a.param] = alone;
    }
    let key = Key {
        module: id,
        kernel: k.name.clone(),
        grid: g,
        block: [block.x, block.y, block.z],
        known_ints,
        noalias,
        cores: CORES,
        dynamic_shared,
    };
    let compiled = kernels::compile(&key, &source);
    let local_bytes = match compiled.as_ref() {
        Ok(c) => c.local_bytes,
        Err(diag) => {
            eprintln!("{diag}");
            return Err(fail(
                Error::NoKernelImageForDevice,
                "the Snitch compiler rejected it (above)",
            ));
        }
    };
    // The cores' local memory as compiled (shared memory, and the private
    // arrays cpuify adds for values that live across barriers) must fit
    // too, below the stacks and above the buffers.
    if local_bytes > reserve.shared {
        let exact = Reserve {
            shared: local_bytes,
            ..reserve
        };
        if let Err(PlaceError::TooBig(msg)) =
            placement::place(&ptr_args, params.tcdm_base, params.tcdm_size, exact)
        {
            return Err(fail(Error::LaunchOutOfResources, &msg));
        }
    }
    // Argument words, pointers as TCDM addresses.
    let mut words = Vec::new();
    let mut ptrs = placed.addrs.iter();
    for (i, &kind) in sig.params.iter().enumerate() {
        match kind {
            ArgKind::Ptr => words.push(ptrs.next().copied().unwrap_or(0)),
            ArgKind::F64 => {
                words.push(values[i] as u32);
                words.push((values[i] >> 32) as u32);
            }
            // Narrow integers sign-extended, as the compiler's constants.
            ArgKind::Int(_) => {
                words.push(sign_extend(values[i], k.param_sizes[i].min(8) * 8) as u32)
            }
            _ => words.push(values[i] as u32),
        }
    }
    let run = Run {
        info: RunInfo::new(name, k, grid, block),
        compiled,
        regions: placed.regions,
        words,
    };
    crate::stream::submit(stream, move || run.execute())?;
    Ok(())
}

/// A queued run: everything the stream task needs.
struct Run {
    info: RunInfo,
    compiled: kernels::Outcome,
    regions: Vec<Region>,
    words: Vec<u32>,
}

/// One launch's counters: the slowest core's cycles and sums over cores.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LaunchCounters {
    /// Cycles of the slowest core (the kernel's time).
    pub cycles: u64,
    /// Cycles summed over the cores that ran.
    pub core_cycles: u64,
    /// `fpss_fpu_issues` summed over cores.
    pub fpu_issues: u64,
    /// Issues of both pipelines (`snitch_issues + fpss_issues`) summed.
    pub issues: u64,
    /// Cores that ran blocks.
    pub cores: u32,
}

impl LaunchCounters {
    fn add_core(&mut self, c: &Counters) {
        self.cycles = self.cycles.max(c.cycles);
        self.core_cycles += c.cycles;
        self.fpu_issues += c.fpss_fpu_issues;
        self.issues += c.snitch_issues + c.fpss_issues;
        self.cores += 1;
    }
}

/// Why a run stopped.
#[derive(Debug)]
pub enum RunFailure {
    /// A core's simulation stopped (its number and the error).
    Sim(u32, SimError),
    /// The program and its arguments disagree (an internal error).
    Setup(String),
}

/// Runs `compiled` on the cores over `tcdm` (a fresh TCDM image holding the
/// buffers), core after core, with `words` in the argument registers.
pub fn run_cores(
    compiled: &Compiled,
    tcdm: &mut cucc_snitch::sim::Tcdm,
    words: &[u32],
) -> Result<LaunchCounters, RunFailure> {
    let params = model();
    let top = (tcdm.end() as u32) & !15;
    let mut counters = LaunchCounters::default();
    for (core, p) in compiled.cores.iter().enumerate() {
        let Some(p) = p else { continue };
        let mut m = Machine::new(params.clone(), &p.words);
        std::mem::swap(&mut m.tcdm, tcdm);
        m.set_x(XReg::SP, top - (core * STACK_PER_CORE) as u32);
        m.set_hart_id(core as u32);
        let r = p.program.run(&mut m, words, INSTRUCTION_LIMIT);
        std::mem::swap(&mut m.tcdm, tcdm);
        match r {
            Ok(c) => counters.add_core(&c),
            Err(cucc_snitch::compile::RunError::Sim(e)) => {
                return Err(RunFailure::Sim(core as u32, e))
            }
            Err(e) => return Err(RunFailure::Setup(e.to_string())),
        }
    }
    Ok(counters)
}

impl Run {
    /// Copies the buffers in, runs the cores, copies the changed bytes
    /// back and advances the device clock (the stream task).
    fn execute(self) {
        let Ok(compiled) = self.compiled.as_ref() else {
            return;
        };
        if crate::errors::sticky().is_some() {
            return;
        }
        let params = model();
        let mut tcdm = cucc_snitch::sim::Tcdm::new(params.tcdm_base, params.tcdm_size);
        let mut before = Vec::with_capacity(self.regions.len());
        for r in &self.regions {
            // SAFETY: the range lies in an allocation the table holds
            // (placement checked it at launch; `cudaFree` waits for the
            // stream first).
            let host = unsafe { std::slice::from_raw_parts(r.host as *const u8, r.len) };
            if tcdm.write_bytes(r.tcdm, host).is_err() {
                eprintln!(
                    "cucc runtime: kernel `{}`: buffer outside the TCDM",
                    self.info.name
                );
                set_sticky(Error::LaunchFailure);
                return;
            }
            before.push(host.to_vec());
        }
        let t = std::time::Instant::now();
        let counters = match run_cores(compiled, &mut tcdm, &self.words) {
            Ok(c) => c,
            Err(RunFailure::Sim(core, e)) => {
                eprintln!(
                    "cucc runtime: kernel `{}` failed on Snitch core {core}: {e}",
                    self.info.name
                );
                let code = match e {
                    SimError::Memory { .. } => Error::IllegalAddress,
                    _ => Error::LaunchFailure,
                };
                set_sticky(code);
                return;
            }
            Err(RunFailure::Setup(e)) => {
                eprintln!("cucc runtime: kernel `{}`: {e}", self.info.name);
                set_sticky(Error::LaunchFailure);
                return;
            }
        };
        for (r, old) in self.regions.iter().zip(&before) {
            let Ok(new) = tcdm.read_bytes(r.tcdm, r.len) else {
                continue;
            };
            // SAFETY: the range copied in at launch, still allocated.
            unsafe { copy_back_changes(r.host, old, new) };
        }
        CYCLES.fetch_add(counters.cycles, Ordering::AcqRel);
        if self.info.profiled {
            let host = t.elapsed();
            self.info.profile(host);
            crate::profile::simulated_kernel(
                "snitch",
                params.clock_hz,
                &self.info.mangled,
                self.info.blocks,
                self.info.threads,
                &counters,
                host,
            );
        }
    }
}

#[cfg(test)]
mod tests;
