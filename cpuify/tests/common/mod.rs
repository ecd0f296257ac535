//! Shared harness: run the registry's passes, emit, compile with the
//! system C compiler, load and run kernels over their whole grid.
#![allow(dead_code)]

use cucc_cpuify::emit_c::{
    compile_c, emit_module, entry_c_name, CompileOptions, CpuTarget, OutputKind,
};
use cucc_cpuify::pipeline::PASSES;
use cucc_cpuify::remarks::Remarks;
use cucc_ir::*;
use std::ffi::c_void;
use std::path::PathBuf;

/// The harness builds with run-time barrier checks on: they must stay
/// silent on correct kernels.
const CHECK: bool = true;
/// Guard bytes kept before and after scratch, as the runtime does.
const GUARD: usize = 256;

/// The launch description entries read (`cucc_launch`).
pub use cucc_cpuify::abi::Launch;

thread_local! {
    /// Entries built with thread ranges (collapsed launches).
    static THREAD_RANGES: std::cell::RefCell<std::collections::HashSet<String>> =
        std::cell::RefCell::new(std::collections::HashSet::new());
    /// Entries built with outer-loop ranges (N-D collapsed launches): the
    /// launch dimensions of their outer and middle loops.
    static OUTER_RANGES: std::cell::RefCell<std::collections::HashMap<String, (usize, usize)>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
    /// Runs of N-D collapsed entries so far: even ones use block ranges,
    /// odd ones outer-loop ranges.
    static OUTER_RUNS: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// A kernel entry (`cucc_kernel_fn`).
pub use cucc_cpuify::abi::KernelFn as Entry;

/// The thread id and the global index `blockIdx.x * blockDim.x +
/// threadIdx.x` of a 1-D launch, emitted in that order (thread id, block
/// id, block size, multiply, add).
pub fn global_x(b: &mut Builder<'_>) -> (Value, Value) {
    let tid = b.thread_id(Dim::X);
    let bid = b.block_id(Dim::X);
    let bdim = b.block_dim(Dim::X);
    let base = b.binary(BinOp::Mul, bid, bdim);
    (tid, b.binary(BinOp::Add, base, tid))
}

/// Lowers every kernel, emits C, compiles it to a shared object and loads it.
pub fn build(m: Module, tag: &str) -> (libloading::Library, Module) {
    build_with(m, tag, true)
}

/// Like [`build`], choosing whether `unroll` runs. Every pass of the
/// registry runs, opt-in ones included, in pipeline order, with the
/// verifier after each.
pub fn build_with(mut m: Module, tag: &str, unroll: bool) -> (libloading::Library, Module) {
    verify(&m, "input");
    let skip = if unroll { "" } else { "unroll" };
    run_passes(&mut m, skip, &mut |m, pass| verify(m, pass));
    compile(m, tag)
}

/// Runs every pass of the registry but `skip` (opt-in ones included), in
/// pipeline order, on every function of `m` (the module is emitted whole),
/// calling `after(m, pass)` after each.
pub fn run_passes(m: &mut Module, skip: &str, after: &mut dyn FnMut(&Module, &str)) {
    let ids: Vec<FuncId> = m.functions.handles().collect();
    let mut remarks = Remarks::default();
    for info in PASSES.iter().filter(|p| p.name != skip) {
        for &fid in &ids {
            (info.run)(m, fid, &mut remarks, CHECK)
                .unwrap_or_else(|e| panic!("{}: {e}", info.name));
        }
        after(m, info.name);
    }
}

thread_local! {
    /// Extra C compiler flags for [`compile`] ([`with_cflags`]).
    static EXTRA_CFLAGS: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Runs `f` with `flags` added to every C compilation of this thread.
#[allow(dead_code)]
pub fn with_cflags<R>(flags: &[&str], f: impl FnOnce() -> R) -> R {
    let old = EXTRA_CFLAGS.with(|c| c.replace(flags.iter().map(|s| s.to_string()).collect()));
    let r = f();
    EXTRA_CFLAGS.with(|c| *c.borrow_mut() = old);
    r
}

/// Emits C for a module the passes already ran on, compiles it to a shared
/// object and loads it.
pub fn compile(m: Module, tag: &str) -> (libloading::Library, Module) {
    let emitted = emit_module(&m).expect("emit");
    OUTER_RANGES.with(|t| {
        let mut t = t.borrow_mut();
        for k in &emitted.kernels {
            match k.outer_ranges {
                Some(o) => t.insert(k.entry.clone(), o),
                None => t.remove(&k.entry),
            };
        }
    });
    THREAD_RANGES.with(|t| {
        let mut t = t.borrow_mut();
        for k in &emitted.kernels {
            if k.thread_ranges {
                t.insert(k.entry.clone());
            } else {
                t.remove(&k.entry);
            }
        }
    });
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("emit_run");
    std::fs::create_dir_all(&dir).expect("tmpdir");
    let c = dir.join(format!("{tag}.c"));
    let so = dir.join(format!("{tag}.so"));
    let src = format!(
        "{}\n#include <stdlib.h>\nint cucc_trap_count = 0;\nvoid __cucc_trap(const char *m) {{ cucc_trap_count++; fprintf(stderr, \"%s\\n\", m); }}\nvoid __cucc_assert_trap(const char *m) {{ cucc_trap_count++; fprintf(stderr, \"%s\\n\", m); }}\n/* every buffer argument is its own allocation */\nuint8_t __cucc_alloc_distinct(uint32_t n, const void *const *p) {{ for (uint32_t i = 0; i < n; i++) {{ if (!p[i]) return 0; for (uint32_t j = 0; j < i; j++) if (p[i] == p[j]) return 0; }} return 1; }}\n",
        emitted.c
    );
    std::fs::write(&c, src).expect("write c");
    // The JIT's flags for the baseline ISA (tests must not depend on the
    // CPU), at -O2, with warnings as errors: the emitted C stays clean.
    let options = CompileOptions {
        opt: "2".into(),
        warnings: [
            "-Wall",
            "-Werror",
            "-Wno-unused-variable",
            "-Wno-unused-but-set-variable",
            // A per-thread slot read after its thread loop (a uniform value
            // taken from thread 0) is written for every block size >= 1,
            // which gcc cannot know now that shared memory is not cleared.
            "-Wno-maybe-uninitialized",
        ]
        .map(String::from)
        .to_vec(),
        extra: EXTRA_CFLAGS.with(|c| c.borrow().clone()),
        ..CompileOptions::new(OutputKind::SharedObject, CpuTarget::Portable)
    };
    if let Err(e) = compile_c(&c, &so, &options) {
        panic!("{e}");
    }
    // SAFETY: the library was just built from generated C with no constructors.
    let lib = unsafe { libloading::Library::new(&so) }.expect("load");
    (lib, m)
}

pub fn run(
    lib: &libloading::Library,
    name: &str,
    grid: [u32; 3],
    block: [u32; 3],
    args: &mut [*mut c_void],
    scratch: usize,
) {
    let sym = format!("{}\0", entry_c_name(name));
    // SAFETY: the symbol is an entry emitted with the `Entry` ABI.
    let entry: libloading::Symbol<Entry> = unsafe { lib.get(sym.as_bytes()) }.expect("entry");
    let launch = Launch {
        grid,
        block,
        dynamic_shared: 0,
        tex: std::ptr::null(),
        thread_ranges: 0,
    };
    // Guard bytes before and after, as the runtime keeps (docs/abi.md).
    let mut buf = vec![0u8; scratch.max(16) + 2 * GUARD];
    let scratch = &mut buf[GUARD..];
    let blocks = grid[0] * grid[1] * grid[2];
    // Two chunks, as two workers would run them.
    let mid = blocks / 2;
    let outer = OUTER_RANGES.with(|t| t.borrow().get(&entry_c_name(name)).copied());
    let odd = OUTER_RUNS.with(|c| {
        c.set(c.get() + 1);
        c.get() % 2 == 0
    });
    if let (Some((o, mid_dim)), true) = (outer, odd) {
        // Outer-loop ranges: the linear index of the two outer loops,
        // `g_outer * extent_middle + g_middle`, cut at odd places.
        let extent = |d: usize| grid[d] * block[d];
        let units = extent(o) * extent(mid_dim);
        let rows = Launch {
            thread_ranges: 2,
            ..launch
        };
        let (mut at, mut step) = (0, 1);
        while at < units {
            let end = (at + step).min(units);
            // SAFETY: args point at live parameter storage of the right sizes.
            unsafe {
                entry(
                    args.as_mut_ptr(),
                    &rows,
                    at,
                    end,
                    scratch.as_mut_ptr().cast(),
                )
            };
            at = end;
            step = step * 2 + 1;
        }
        return;
    }
    let collapsed = THREAD_RANGES.with(|t| t.borrow().contains(&entry_c_name(name)));
    if collapsed {
        // The first half of the blocks as a block range, the rest as thread
        // ranges cut at odd places (inside blocks, across block boundaries).
        // SAFETY: args point at live parameter storage of the right sizes.
        unsafe {
            entry(
                args.as_mut_ptr(),
                &launch,
                0,
                mid,
                scratch.as_mut_ptr().cast(),
            )
        };
        let threads = Launch {
            thread_ranges: 1,
            ..launch
        };
        let nt = block[0] * block[1] * block[2];
        let (lo, hi) = (mid * nt, blocks * nt);
        let mut at = lo;
        let mut step = 1;
        while at < hi {
            let end = (at + step).min(hi);
            // SAFETY: as above.
            unsafe {
                entry(
                    args.as_mut_ptr(),
                    &threads,
                    at,
                    end,
                    scratch.as_mut_ptr().cast(),
                )
            };
            at = end;
            step = step * 3 + 2;
        }
        return;
    }
    for (b, e) in [(0, mid), (mid, blocks)] {
        // SAFETY: args point at live parameter storage of the right sizes.
        unsafe {
            entry(
                args.as_mut_ptr(),
                &launch,
                b,
                e,
                scratch.as_mut_ptr().cast(),
            )
        };
    }
}

/// How many times the loaded kernels called `__cucc_trap`.
pub fn trap_count(lib: &libloading::Library) -> i32 {
    // SAFETY: the harness defines `int cucc_trap_count` in every library.
    unsafe {
        let sym: libloading::Symbol<*const i32> = lib.get(b"cucc_trap_count\0").expect("counter");
        **sym
    }
}

/// Panics with the verifier's messages if `m` is not valid after `pass`.
pub fn verify(m: &Module, pass: &str) {
    if let Err(e) = cucc_ir::verify_module(m) {
        panic!("IR invalid after {pass}:\n{e}");
    }
}

/// A kernel argument for [`differential`].
#[derive(Clone, Debug)]
pub enum HArg {
    /// A device buffer with these initial bytes.
    Buf(Vec<u8>),
    /// A scalar of `size` bytes (little-endian bits).
    Scalar(u64, usize),
}

impl HArg {
    /// A buffer of `f32`s.
    pub fn f32s(v: &[f32]) -> HArg {
        HArg::Buf(v.iter().flat_map(|x| x.to_le_bytes()).collect())
    }
    /// A buffer of `i32`s.
    pub fn i32s(v: &[i32]) -> HArg {
        HArg::Buf(v.iter().flat_map(|x| x.to_le_bytes()).collect())
    }
    /// An `i32` scalar.
    pub fn i32(v: i32) -> HArg {
        HArg::Scalar(u64::from(v as u32), 4)
    }
}

/// Runs `kernel` through the interpreter on the per-thread module (the
/// oracle), after every pass of the pipeline, and as compiled C; every run
/// must leave the buffers exactly as the oracle did. Returns the oracle's
/// buffers.
pub fn differential(
    m: Module,
    kernel: &str,
    grid: [u32; 3],
    block: [u32; 3],
    args: &[HArg],
    tag: &str,
) -> Vec<Vec<u8>> {
    differential_with(m, kernel, grid, block, args, tag, true)
}

/// [`differential`], choosing whether the opt-in `collapse-1d` runs (it
/// takes 1-D launches before `clamp-guards` sees their thread loops).
pub fn differential_with(
    m: Module,
    kernel: &str,
    grid: [u32; 3],
    block: [u32; 3],
    args: &[HArg],
    tag: &str,
    collapse_1d: bool,
) -> Vec<Vec<u8>> {
    let oracle = interpret(&m, kernel, grid, block, args, "input");
    let mut m = m;
    m.function(kernel).expect("kernel");
    let check = |m: &Module, pass: &str| {
        verify(m, pass);
        let got = interpret(m, kernel, grid, block, args, pass);
        assert_eq!(
            got, oracle,
            "interpreter after {pass} disagrees with the oracle"
        );
    };
    // The interpreter checks `kernel` after every pass.
    let skip = if collapse_1d { "" } else { "collapse-1d" };
    run_passes(&mut m, skip, &mut |m, pass| check(m, pass));

    // The compiled C.
    let (lib, _) = compile(m, tag);
    let mut storage: Vec<Vec<u64>> = Vec::new();
    for a in args {
        match a {
            HArg::Buf(bytes) => {
                let mut words = vec![0u64; bytes.len().div_ceil(8).max(1)];
                // SAFETY: `words` has at least `bytes.len()` bytes.
                unsafe {
                    std::ptr::copy_nonoverlapping(
                        bytes.as_ptr(),
                        words.as_mut_ptr().cast::<u8>(),
                        bytes.len(),
                    )
                };
                storage.push(words);
            }
            HArg::Scalar(..) => storage.push(Vec::new()),
        }
    }
    let mut cells: Vec<u64> = args
        .iter()
        .zip(&mut storage)
        .map(|(a, s)| match a {
            HArg::Buf(_) => s.as_mut_ptr() as u64,
            HArg::Scalar(bits, _) => *bits,
        })
        .collect();
    let mut ptrs: Vec<*mut c_void> = cells.iter_mut().map(|c| (c as *mut u64).cast()).collect();
    run(&lib, kernel, grid, block, &mut ptrs, 64 * 1024);
    let compiled: Vec<Vec<u8>> = args
        .iter()
        .zip(&storage)
        .filter_map(|(a, s)| match a {
            HArg::Buf(bytes) => {
                // SAFETY: `s` holds at least `bytes.len()` bytes.
                let view =
                    unsafe { std::slice::from_raw_parts(s.as_ptr().cast::<u8>(), bytes.len()) };
                Some(view.to_vec())
            }
            HArg::Scalar(..) => None,
        })
        .collect();
    assert_eq!(compiled, oracle, "compiled C disagrees with the oracle");
    oracle
}

/// Runs `kernel` of `m` in the interpreter; returns the final buffers.
fn interpret(
    m: &Module,
    kernel: &str,
    grid: [u32; 3],
    block: [u32; 3],
    args: &[HArg],
    stage: &str,
) -> Vec<Vec<u8>> {
    let mut it = cucc_ir::interp::Interpreter::new(m);
    let mut iargs = Vec::new();
    let mut bufs = Vec::new();
    for a in args {
        match a {
            HArg::Buf(bytes) => {
                let p = it.memory.alloc(Space::Global, bytes.len().max(1) as u64);
                it.memory.write(p, bytes).expect("write");
                bufs.push((p, bytes.len()));
                iargs.push(cucc_ir::interp::Arg::ptr(p));
            }
            HArg::Scalar(bits, _) => iargs.push(cucc_ir::interp::Arg::Scalar(*bits)),
        }
    }
    let cfg = cucc_ir::interp::LaunchConfig {
        grid,
        block,
        dynamic_shared: 0,
    };
    if let Err(e) = it.launch(kernel, &cfg, &iargs) {
        panic!("interpreter failed after {stage}: {e}");
    }
    bufs.iter()
        .map(|&(p, n)| it.memory.read(p, n as u64).expect("read"))
        .collect()
}
