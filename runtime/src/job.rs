//! A kernel launch queued on a stream, and how it runs.
//!
//! A launch captures its argument values when it is submitted (CUDA's
//! semantics: arguments are read at launch time) and is held inline in its
//! stream's queue, so queueing one allocates nothing unless its arguments
//! exceed 256 bytes. When the stream reaches it, the grid's linear range of
//! blocks (or threads, or outer-loop indices) is cut into chunks that the
//! running thread and the block pool ([`crate::pool`]) run together; each
//! calls the kernel entry on a chunk with its own scratch buffer of
//! `round_up(static_shared, 16) + dynamic_shared` bytes (with
//! [`SCRATCH_GUARD`] readable bytes on either side, 128-byte aligned,
//! contents unspecified: CUDA shared memory starts uninitialised too, and
//! the buffer is reused for every block of the chunk).
//!
//! It imports neither streams nor the registry nor the texture table
//! ([`crate::launch`] builds jobs from them), so the streams that hold jobs
//! need not import the modules that make them.

use std::cell::{Cell, RefCell};
use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::errors::{CudaResult, Error};
use crate::kernel::{CuccKernelFn, CuccLaunch, KernelImpl};
use crate::texture_abi::Snapshot;

/// Alignment of scratch buffers.
const SCRATCH_ALIGN: usize = 128;
/// Readable bytes kept before and after every scratch buffer (docs/abi.md):
/// translated kernels may load a few elements past a shared array whose
/// value they then discard (cpuify's `speculate`).
pub const SCRATCH_GUARD: usize = 256;
/// [`SCRATCH_GUARD`] in scratch lines.
const GUARD_LINES: usize = SCRATCH_GUARD / SCRATCH_ALIGN;
/// Chunks per pool thread: enough for stealing to balance uneven blocks.
const CHUNKS_PER_THREAD: u64 = 4;

thread_local! {
    /// The abort flag of the launch this worker is running, for traps.
    static CURRENT_ABORT: Cell<*const AtomicBool> = const { Cell::new(std::ptr::null()) };
    static SCRATCH: RefCell<Vec<ScratchLine>> = const { RefCell::new(Vec::new()) };
}

#[repr(C, align(128))]
#[derive(Clone, Copy)]
struct ScratchLine([u8; SCRATCH_ALIGN]);

/// Argument bytes kept inside the launch (no allocation) up to this size.
const INLINE_PARAM_BYTES: usize = 256;
/// Parameters whose pointer array is built on the stack up to this count.
const INLINE_PARAMS: usize = 32;

/// Argument values captured at launch: each parameter's bytes at a 16-byte
/// aligned offset. The pointer array the entry gets is built when the launch
/// runs, because the launch moves (into and out of its stream's queue).
pub(crate) struct Params {
    storage: ParamStorage,
    /// Offset of each parameter (16-byte multiples).
    offsets: Offsets,
}

// Inline on purpose: small argument lists (nearly all) need no allocation.
#[allow(clippy::large_enum_variant)]
enum ParamStorage {
    Inline([u128; INLINE_PARAM_BYTES / 16]),
    Heap(Vec<u128>),
}

enum Offsets {
    Inline(u8, [u16; INLINE_PARAMS]),
    Heap(Vec<usize>),
}

impl Params {
    /// Copies each argument (`args[i]` points to a value of `sizes[i]` bytes).
    ///
    /// # Safety
    /// `args` must be NULL or hold `sizes.len()` pointers to readable values.
    // Inlined into `launch`, in another module: it runs on every launch.
    #[inline]
    pub(crate) unsafe fn capture(args: *mut *mut c_void, sizes: &[u32]) -> CudaResult<Params> {
        let total: usize = sizes
            .iter()
            .map(|&s| (s as usize).next_multiple_of(16))
            .sum();
        if !sizes.is_empty() && args.is_null() {
            return Err(Error::InvalidValue);
        }
        let small = total <= INLINE_PARAM_BYTES && sizes.len() <= INLINE_PARAMS;
        let mut storage = if small {
            ParamStorage::Inline([0; INLINE_PARAM_BYTES / 16])
        } else {
            ParamStorage::Heap(vec![0u128; total / 16])
        };
        let mut offsets = if small {
            Offsets::Inline(sizes.len() as u8, [0; INLINE_PARAMS])
        } else {
            Offsets::Heap(Vec::with_capacity(sizes.len()))
        };
        let base = storage.bytes();
        let mut at = 0usize;
        for (i, &size) in sizes.iter().enumerate() {
            // SAFETY: caller promises `sizes.len()` argument pointers.
            let src = unsafe { *args.add(i) } as *const u8;
            if src.is_null() && size != 0 {
                return Err(Error::InvalidValue);
            }
            if size != 0 {
                // SAFETY: `at + size <= total`, the storage's size; the
                // source holds `size` bytes.
                unsafe { std::ptr::copy_nonoverlapping(src, base.add(at), size as usize) };
            }
            match &mut offsets {
                // `at < INLINE_PARAM_BYTES` fits in u16.
                Offsets::Inline(_, o) => o[i] = at as u16,
                Offsets::Heap(o) => o.push(at),
            }
            at += (size as usize).next_multiple_of(16);
        }
        Ok(Params { storage, offsets })
    }

    /// Calls `f` with the argument pointer array, valid during the call.
    /// (Entries only read through the pointers: `docs/abi.md`.)
    fn with_pointers<R>(&self, f: impl FnOnce(*mut *mut c_void) -> R) -> R {
        let base = self.storage.read_only_bytes();
        // SAFETY (both arms): every offset lies inside the storage.
        match &self.offsets {
            Offsets::Inline(n, o) => {
                let mut ptrs = [std::ptr::null_mut::<c_void>(); INLINE_PARAMS];
                for (p, &off) in ptrs.iter_mut().zip(&o[..*n as usize]) {
                    *p = unsafe { base.add(off as usize) } as *mut c_void;
                }
                f(ptrs.as_mut_ptr())
            }
            Offsets::Heap(o) => {
                let mut ptrs: Vec<*mut c_void> = o
                    .iter()
                    .map(|&off| unsafe { base.add(off) } as *mut c_void)
                    .collect();
                f(ptrs.as_mut_ptr())
            }
        }
    }
}

impl ParamStorage {
    fn read_only_bytes(&self) -> *mut u8 {
        match self {
            ParamStorage::Inline(a) => a.as_ptr() as *mut u8,
            ParamStorage::Heap(v) => v.as_ptr() as *mut u8,
        }
    }

    fn bytes(&mut self) -> *mut u8 {
        match self {
            ParamStorage::Inline(a) => a.as_mut_ptr() as *mut u8,
            ParamStorage::Heap(v) => v.as_mut_ptr() as *mut u8,
        }
    }
}

/// A launch waiting in (or running from) a stream.
pub(crate) struct Job {
    /// The kernel's entry.
    pub(crate) entry: CuccKernelFn,
    /// The textures the launch reads (`launch.tex` points into it).
    pub(crate) _textures: Option<Arc<Snapshot>>,
    /// What the entry is told about the launch.
    pub(crate) launch: CuccLaunch,
    /// The argument values.
    pub(crate) params: Params,
    /// Scratch (shared memory) bytes per chunk.
    pub(crate) scratch: usize,
    /// Blocks, or threads / outer-loop indices (`launch.thread_ranges`).
    pub(crate) units: u64,
    /// Fewest units worth a chunk.
    pub(crate) min_chunk: u64,
    /// The kernel (its name for fault reports).
    pub(crate) kernel: Arc<KernelImpl>,
    /// Whether the launch is timed for the profile.
    pub(crate) profiled: bool,
}

// SAFETY: the raw pointers are the launch description's texture view (kept
// alive by `_textures`); CUDA's contract makes the memory the arguments
// reference the caller's to keep valid until the kernel completes.
unsafe impl Send for Job {}
// SAFETY: chunks only read the job (entry, launch description, sizes).
unsafe impl Sync for Job {}

/// Raw argument array shared by the chunks of one launch.
#[derive(Clone, Copy)]
struct Args(*mut *mut c_void);
// SAFETY: workers only read the array; the entry treats it as read-only per
// the kernel ABI, and it outlives the launch's chunks.
unsafe impl Sync for Args {}

impl Job {
    fn run_chunk(&self, args: Args, abort: &AtomicBool, begin: u64, end: u64) {
        if abort.load(Ordering::Relaxed) {
            return;
        }
        SCRATCH.with(|cell| {
            let mut buf = cell.borrow_mut();
            let lines = self.scratch.div_ceil(SCRATCH_ALIGN).max(1) + 2 * GUARD_LINES;
            if buf.len() < lines {
                buf.resize(lines, ScratchLine([0; SCRATCH_ALIGN]));
            }
            CURRENT_ABORT.with(|c| c.set(abort));
            // SAFETY: the entry follows the kernel ABI; the argument array,
            // launch description and scratch outlive the call. Block ids fit
            // in u32 (checked by `validate`), thread ids when passed (`launch`).
            // A memory fault in the kernel stops the launch (`fault`).
            let ok = unsafe {
                crate::fault::run_chunk(
                    &self.kernel.name,
                    self.entry,
                    args.0,
                    &self.launch,
                    begin as u32,
                    end as u32,
                    buf[GUARD_LINES..].as_mut_ptr() as *mut c_void,
                )
            };
            if !ok {
                abort.store(true, Ordering::Relaxed);
            }
            CURRENT_ABORT.with(|c| c.set(std::ptr::null()));
        });
    }

    /// Runs the launch on the calling thread (a stream thread, whose stack is
    /// large enough for kernels) and the block pool.
    pub(crate) fn run(&mut self) {
        let started = self.profiled.then(std::time::Instant::now);
        let abort = AtomicBool::new(false);
        let threads = crate::pool::executors() as u64;
        let chunks = chunk_count(self.units, self.min_chunk, threads);
        let per_chunk = self.units.div_ceil(chunks);
        let job = &*self;
        job.params.with_pointers(|ptrs| {
            let args = Args(ptrs);
            crate::pool::parallel_for(chunks as u32, &|c| {
                let begin = u64::from(c) * per_chunk;
                let end = (begin + per_chunk).min(job.units);
                if begin < end {
                    job.run_chunk(args, &abort, begin, end);
                }
            });
        });
        if let (k, Some(t)) = (&self.kernel, started) {
            let blocks = u64::from(self.launch.grid[0])
                * u64::from(self.launch.grid[1])
                * u64::from(self.launch.grid[2]);
            let per_block = u64::from(self.launch.block[0])
                * u64::from(self.launch.block[1])
                * u64::from(self.launch.block[2]);
            crate::profile::kernel(&k.name, blocks, blocks * per_block, t.elapsed());
        }
    }
}

/// How many chunks `units` blocks (or threads, or outer-loop indices) are
/// cut into for a pool of `workers` threads, each of at least `min_chunk`
/// units.
fn chunk_count(units: u64, min_chunk: u64, workers: u64) -> u64 {
    (units / min_chunk.max(1))
        .min(workers * CHUNKS_PER_THREAD)
        .max(1)
}

/// Stops the launch the calling worker runs from starting further chunks
/// (a trap in kernel code; nothing when called outside a launch).
pub(crate) fn abort_current_launch() {
    CURRENT_ABORT.with(|c| {
        let p = c.get();
        if !p.is_null() {
            // SAFETY: set by `run_chunk` to a flag that outlives the entry call.
            unsafe { (*p).store(true, Ordering::Relaxed) };
        }
    });
}

/// Stops the launch the calling worker runs; true if this call stopped it
/// (it was running, or runs outside a launch), false if it was already
/// stopped.
/// A checked kernel's failed check reports only when this is true, so a
/// launch reports one error.
pub(crate) fn claim_abort() -> bool {
    CURRENT_ABORT.with(|c| {
        let p = c.get();
        // SAFETY: see `abort_current_launch`.
        p.is_null() || !unsafe { (*p).swap(true, Ordering::Relaxed) }
    })
}

/// Whether the launch the calling worker runs has been stopped.
pub(crate) fn current_launch_aborted() -> bool {
    CURRENT_ABORT.with(|c| {
        let p = c.get();
        // SAFETY: see `abort_current_launch`.
        !p.is_null() && unsafe { (*p).load(Ordering::Relaxed) }
    })
}
