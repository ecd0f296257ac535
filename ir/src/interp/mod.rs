//! The reference interpreter: runs a kernel with real GPU semantics.
//!
//! It is the oracle that compiled code is compared against, so it favours
//! exactness and clear errors over speed (while still running a few million
//! thread-steps per second). Every thread has its own state; block barriers
//! wait for every thread of the block that has not finished (as on GPUs
//! since Volta, exited threads no longer count); warp ops exchange values
//! between the lanes of a warp; every memory access is bounds-checked;
//! over-wide shifts and divergent barriers are errors naming the source
//! location, kernel, block and thread. Integer division never traps: it
//! gives what NVIDIA GPUs give (docs/ir.md).
//!
//! Both kernel forms run:
//! - [`FunctionKind::Kernel`]: the body runs
//!   once per thread. Blocks run one after another (so global atomics are
//!   trivially atomic between blocks); the threads of a block run
//!   round-robin, each until it finishes, reaches a barrier or a warp op
//!   (see the `sched` module for how those resolve).
//! - [`FunctionKind::Launch`]: the body runs
//!   once; `parallel<grid>` iterations run one after another, each with its
//!   own shared memory, and `parallel<block>`/`<warp>`/`<lane>` iterations
//!   are thread groups synchronised exactly like a kernel-form block.
//!
//! Memory is one [`Memory`]: a pointer is `(allocation id << 32) | offset`.
//! Private allocas live until their frame (or thread) ends; shared memory
//! per block; everything allocated by a launch is released when it ends.
//!
//! `thread_id`/`block_id` read the ids of the executing thread, which in
//! launch form are the induction values of the enclosing `parallel` ops
//! (`block_id` of a grid iteration; `thread_id` of a block iteration, or
//! derived from the linear id `warp * 32 + lane`); `block_dim`/`grid_dim`
//! read the launch configuration in both forms.

mod check;
pub mod error;
pub mod eval;
pub mod math;
pub mod memory;
pub mod printf;
pub mod rounding;
pub mod runspec;
mod sched;
mod thread;

pub use error::{InterpError, Site};
pub use memory::Memory;

use crate::func::{FunctionKind, Op};
use crate::module::{FuncId, GlobalId, GlobalKind, Module};
use crate::ops::TexKind;
use crate::types::Space;
use check::FuncInfo;
use eval::Scalar;
use memory::Origin;
use sched::{Group, SharedInstance};
use thread::{Ctx, Cursor, Frame, State, Thread};

/// Grid and block shape of a launch, and its dynamic shared memory size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchConfig {
    /// `gridDim`.
    pub grid: [u32; 3],
    /// `blockDim`.
    pub block: [u32; 3],
    /// Bytes of dynamic shared memory per block.
    pub dynamic_shared: u32,
}

impl LaunchConfig {
    /// A 1-D launch of `grid` blocks of `block` threads.
    pub fn linear(grid: u32, block: u32) -> Self {
        LaunchConfig {
            grid: [grid, 1, 1],
            block: [block, 1, 1],
            dynamic_shared: 0,
        }
    }
}

/// A kernel argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// A scalar parameter's bits, zero-extended (see [`eval`]).
    Scalar(u64),
    /// The bytes of a by-value aggregate parameter; the kernel receives a
    /// pointer to a private copy.
    Byval(Vec<u8>),
}

impl Arg {
    /// An `i32` argument.
    pub fn i32(v: i32) -> Arg {
        Arg::Scalar(u64::from(v as u32))
    }
    /// A `u32` argument (an `i32` parameter).
    pub fn u32(v: u32) -> Arg {
        Arg::Scalar(u64::from(v))
    }
    /// An `i64` argument.
    pub fn i64(v: i64) -> Arg {
        Arg::Scalar(v as u64)
    }
    /// An `f32` argument.
    pub fn f32(v: f32) -> Arg {
        Arg::Scalar(u64::from(v.to_bits()))
    }
    /// An `f64` argument.
    pub fn f64(v: f64) -> Arg {
        Arg::Scalar(v.to_bits())
    }
    /// A pointer argument.
    pub fn ptr(p: u64) -> Arg {
        Arg::Scalar(p)
    }
    /// An `i1` argument.
    pub fn bool(v: bool) -> Arg {
        Arg::Scalar(u64::from(v))
    }
}

/// What a launch did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LaunchStats {
    /// Ops executed, over all threads.
    pub steps: u64,
    /// Threads created (kernel-form threads, parallel iterations and the
    /// launch-form body thread).
    pub threads: u64,
    /// Blocks run (kernel form) or grid iterations started (launch form).
    pub blocks: u64,
}

/// One texture fetch the interpreter asks a [`TextureResolver`] for.
#[derive(Clone, Copy, Debug)]
pub struct TexRequest<'a> {
    /// The texture handle (an object, or a reference's
    /// [`texture_ref_handle`]).
    pub handle: u64,
    /// How the texture is read.
    pub kind: TexKind,
    /// Coordinates, as bit patterns: `i32` for `fetch1d`, `f32` otherwise.
    pub coords: &'a [u64],
    /// How many texel components to return.
    pub results: usize,
}

/// Resolves `tex.fetch` for the interpreter: the runtime (or a test) knows
/// what a texture handle is bound to.
pub trait TextureResolver {
    /// Fetches `req.results` texel components (bit patterns of the result
    /// types).
    fn fetch(&self, req: &TexRequest<'_>) -> Result<Vec<u64>, String>;
}

/// The default resolver: there are no textures.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTextures;

impl TextureResolver for NoTextures {
    fn fetch(&self, req: &TexRequest<'_>) -> Result<Vec<u64>, String> {
        Err(format!("no texture is bound to handle {:#x}", req.handle))
    }
}

/// Tag bit of the handles `tex.ref` produces.
pub const TEXREF_TAG: u64 = 1 << 62;

/// The handle `tex.ref @g` evaluates to: [`TEXREF_TAG`] plus the global's
/// index, so a resolver can tell texture references from texture objects.
pub fn texture_ref_handle(g: GlobalId) -> u64 {
    TEXREF_TAG | g.index() as u64
}

/// Runs kernels of one module.
pub struct Interpreter<'m> {
    module: &'m Module,
    /// All memory: host buffers, module globals, and (during a launch) the
    /// device's allocations.
    pub memory: Memory,
    infos: Vec<FuncInfo>,
    globals: Vec<u64>,
    setup_error: Option<String>,
    textures: Box<dyn TextureResolver + 'm>,
    step_limit: Option<u64>,
    printf: String,
}

impl<'m> Interpreter<'m> {
    /// An interpreter for `module`, with every global and constant variable
    /// allocated and initialised. Never fails: a global that cannot be set
    /// up (an initialiser of the wrong size, a type too large) makes every
    /// launch return [`InterpError::Setup`].
    pub fn new(module: &'m Module) -> Self {
        let mut memory = Memory::new();
        let mut globals = vec![0; module.globals.len()];
        let mut setup_error = None;
        for (g, gl) in module.globals.iter() {
            if gl.kind != GlobalKind::Variable || gl.space == Space::Shared {
                continue;
            }
            let size = if module.types.contains(gl.ty) {
                module.types.size_of(gl.ty)
            } else {
                setup_error = Some(format!("global @{} has an unknown type", gl.name));
                continue;
            };
            match memory.try_alloc(gl.space, size, Origin::Global(g)) {
                Ok(p) => {
                    globals[g.index()] = p;
                    if let Some(init) = &gl.init {
                        if init.len() as u64 != size {
                            setup_error = Some(format!(
                                "global @{} has {} bytes of initialiser for a {size}-byte type",
                                gl.name,
                                init.len()
                            ));
                        } else if memory.write(p, init).is_err() {
                            setup_error =
                                Some(format!("global @{} cannot be initialised", gl.name));
                        }
                    }
                }
                Err(_) => {
                    setup_error = Some(format!("global @{} of {size} bytes is too large", gl.name))
                }
            }
        }
        let infos = module
            .functions
            .iter()
            .map(|(_, f)| FuncInfo::new(module, f))
            .collect();
        Interpreter {
            module,
            memory,
            infos,
            globals,
            setup_error,
            textures: Box::new(NoTextures),
            step_limit: None,
            printf: String::new(),
        }
    }

    /// The address of a global or constant variable.
    pub fn global_ptr(&self, name: &str) -> Option<u64> {
        let g = self.module.global(name)?;
        Some(self.globals[g.index()]).filter(|&p| p != 0)
    }

    /// The handle `tex.ref` gives for the texture reference `name`.
    pub fn texture_ref(&self, name: &str) -> Option<u64> {
        let g = self.module.global(name)?;
        matches!(self.module.globals[g].kind, GlobalKind::Texture { .. })
            .then(|| texture_ref_handle(g))
    }

    /// Sets what `tex.fetch` reads.
    pub fn set_textures(&mut self, resolver: Box<dyn TextureResolver + 'm>) {
        self.textures = resolver;
    }

    /// Limits the ops one launch may execute (`None`: no limit), so an
    /// infinite loop becomes [`InterpError::StepLimit`].
    pub fn set_step_limit(&mut self, limit: Option<u64>) {
        self.step_limit = limit;
    }

    /// Everything device `printf` wrote so far, in execution order.
    pub fn printf_output(&self) -> &str {
        &self.printf
    }

    /// Takes the `printf` output, leaving it empty.
    pub fn take_printf_output(&mut self) -> String {
        std::mem::take(&mut self.printf)
    }

    fn check_args(&self, fid: FuncId, args: &[Arg]) -> Result<(), InterpError> {
        let f = &self.module.functions[fid];
        let bad = |message: String| InterpError::BadArgs {
            kernel: f.name.clone(),
            message,
        };
        let params = f.param_values();
        if args.len() != params.len() {
            return Err(bad(format!(
                "{} arguments given, the kernel has {} parameters",
                args.len(),
                params.len()
            )));
        }
        for (i, (arg, p)) in args.iter().zip(params).enumerate() {
            let ty = self.infos[fid.index()].vty[p.index()];
            let byval = f.params.get(i).and_then(|a| a.byval);
            match (arg, byval) {
                (Arg::Byval(bytes), Some(bt)) => {
                    let size = if self.module.types.contains(bt) {
                        self.module.types.size_of(bt)
                    } else {
                        return Err(bad(format!("parameter {i} has an unknown by-value type")));
                    };
                    if bytes.len() as u64 != size {
                        return Err(bad(format!(
                            "parameter {i} is a {size}-byte by-value aggregate, {} bytes given",
                            bytes.len()
                        )));
                    }
                    if ty != Scalar::Ptr {
                        return Err(bad(format!("by-value parameter {i} is not a pointer")));
                    }
                }
                (Arg::Byval(_), None) => {
                    return Err(bad(format!("parameter {i} is a scalar, bytes given")))
                }
                (Arg::Scalar(_), Some(_)) => {
                    return Err(bad(format!(
                        "parameter {i} is passed by value, a scalar given"
                    )))
                }
                (Arg::Scalar(bits), None) => {
                    if ty == Scalar::Aggregate {
                        return Err(bad(format!("parameter {i} is not a scalar")));
                    }
                    let fits = match ty {
                        Scalar::Int(1) => *bits <= 1,
                        _ => ty.normalize(*bits) == *bits,
                    };
                    if !fits {
                        return Err(bad(format!(
                            "argument {i} ({bits:#x}) does not fit the {ty:?} parameter"
                        )));
                    }
                }
            }
        }
        Ok(())
    }

    fn check_config(&self, name: &str, cfg: &LaunchConfig) -> Result<(), InterpError> {
        let bad = |message: &str| InterpError::BadConfig {
            kernel: name.to_string(),
            message: message.to_string(),
        };
        if cfg.grid.contains(&0) || cfg.block.contains(&0) {
            return Err(bad("every grid and block dimension must be at least 1"));
        }
        let threads = cfg.block.iter().map(|&d| u64::from(d)).product::<u64>();
        if threads > 1024 || cfg.block[2] > 64 {
            return Err(bad("a block has at most 1024 threads and 64 in z"));
        }
        if cfg.grid[1] > 65535 || cfg.grid[2] > 65535 {
            return Err(bad("grid y and z are at most 65535"));
        }
        Ok(())
    }

    /// Runs `kernel` over the grid of `cfg` with `args`.
    pub fn launch(
        &mut self,
        kernel: &str,
        cfg: &LaunchConfig,
        args: &[Arg],
    ) -> Result<LaunchStats, InterpError> {
        if let Some(message) = &self.setup_error {
            return Err(InterpError::Setup {
                message: message.clone(),
            });
        }
        let module = self.module;
        let fid = module
            .function(kernel)
            .ok_or_else(|| InterpError::UnknownKernel {
                name: kernel.to_string(),
            })?;
        let func = &module.functions[fid];
        if func.kind == FunctionKind::Device {
            return Err(InterpError::NotAKernel {
                name: kernel.to_string(),
            });
        }
        self.check_config(kernel, cfg)?;
        if let Err(message) = &self.infos[fid.index()].handles {
            return Err(InterpError::Malformed {
                site: Site {
                    loc: module.describe_loc(func.loc),
                    kernel: kernel.to_string(),
                    block: None,
                    thread: None,
                },
                message: message.clone(),
            });
        }
        self.check_args(fid, args)?;
        let mut exec = Exec {
            module,
            infos: &self.infos,
            mem: &mut self.memory,
            printf: &mut self.printf,
            textures: &*self.textures,
            globals: &self.globals,
            cfg: *cfg,
            kernel: fid,
            launch_form: func.kind == FunctionKind::Launch,
            steps: 0,
            limit: self.step_limit.unwrap_or(u64::MAX),
            shared: Vec::new(),
            threads: 0,
            blocks: 0,
            env_pool: Vec::new(),
            captures: std::collections::HashMap::new(),
        };
        let result = if exec.launch_form {
            exec.run_launch_form(args)
        } else {
            exec.run_kernel_form(args)
        };
        let stats = LaunchStats {
            steps: exec.steps,
            threads: exec.threads,
            blocks: exec.blocks,
        };
        self.memory.release_transient();
        result.map(|()| stats)
    }
}

/// The state of one launch.
pub(crate) struct Exec<'a> {
    module: &'a Module,
    infos: &'a [FuncInfo],
    mem: &'a mut Memory,
    printf: &'a mut String,
    textures: &'a dyn TextureResolver,
    globals: &'a [u64],
    cfg: LaunchConfig,
    kernel: FuncId,
    launch_form: bool,
    steps: u64,
    limit: u64,
    shared: Vec<Option<SharedInstance>>,
    threads: u64,
    blocks: u64,
    /// Environments of finished parallel iterations, reused by the next
    /// ones: a fresh one per iteration (a copy of the whole function's
    /// value table) dominated the run time of large translated kernels.
    env_pool: Vec<Vec<u64>>,
    /// Per parallel body, the values its ops read: all an iteration needs
    /// from its parent's environment (see [`Exec::child_env`]).
    captures: std::collections::HashMap<(FuncId, crate::func::Region), std::rc::Rc<[u32]>>,
}

impl Exec<'_> {
    /// The site of `op` in `func` executed by a thread with ids `who`.
    fn site(&self, who: (Option<[u32; 3]>, Option<[u32; 3]>), func: FuncId, op: Op) -> Site {
        let loc = self
            .module
            .functions
            .try_get(func)
            .and_then(|f| f.ops.try_get(op))
            .map(|o| self.module.describe_loc(o.loc))
            .unwrap_or_else(|| "<unknown>".to_string());
        Site {
            loc,
            kernel: self.module.functions[self.kernel].name.clone(),
            block: who.0,
            thread: who.1,
        }
    }

    /// A malformed-IR error located at a function's definition.
    fn err_at_func(
        &self,
        who: (Option<[u32; 3]>, Option<[u32; 3]>),
        func: FuncId,
        message: &str,
    ) -> InterpError {
        let f = &self.module.functions[func];
        InterpError::Malformed {
            site: Site {
                loc: self.module.describe_loc(f.loc),
                kernel: self.module.functions[self.kernel].name.clone(),
                block: who.0,
                thread: who.1,
            },
            message: format!("in `{}`: {message}", f.name),
        }
    }

    fn eval_error(
        &self,
        who: (Option<[u32; 3]>, Option<[u32; 3]>),
        func: FuncId,
        op: Op,
        e: eval::EvalError,
    ) -> InterpError {
        let site = self.site(who, func, op);
        match e {
            eval::EvalError::Type(message) => InterpError::Malformed { site, message },
            eval::EvalError::Overflow(message) => InterpError::InvalidOperation { site, message },
        }
    }

    /// The body frame of a kernel thread (or of the launch-form body),
    /// with private copies of the by-value arguments.
    fn body_frame(&mut self, args: &[Arg]) -> Result<Frame, InterpError> {
        let f = &self.module.functions[self.kernel];
        let mut env = vec![0u64; f.values.len()];
        let mut allocas = Vec::new();
        for (i, (arg, p)) in args.iter().zip(f.param_values()).enumerate() {
            env[p.index()] = match arg {
                Arg::Scalar(bits) => *bits,
                Arg::Byval(bytes) => {
                    let describe = |m: &Memory, fault| InterpError::Setup {
                        message: m.describe(&fault, Some(self.module)),
                    };
                    let ptr = self
                        .mem
                        .alloc_transient(
                            Space::Private,
                            bytes.len() as u64,
                            Origin::Byval(i as u32),
                        )
                        .map_err(|fault| describe(self.mem, fault))?;
                    self.mem
                        .write_bytes(memory::Access::Store, ptr, bytes, false)
                        .map_err(|fault| describe(self.mem, fault))?;
                    allocas.push(ptr);
                    ptr
                }
            };
        }
        Ok(Frame {
            func: self.kernel,
            env,
            cursors: vec![Cursor {
                region: f.body,
                pos: 0,
                ctx: Ctx::Body,
            }],
            allocas,
            call: None,
            parallel_child: false,
        })
    }

    fn run_kernel_form(&mut self, args: &[Arg]) -> Result<(), InterpError> {
        let [gx, gy, gz] = self.cfg.grid;
        let [bx, by, bz] = self.cfg.block;
        let n = bx * by * bz;
        for z in 0..gz {
            for y in 0..gy {
                for x in 0..gx {
                    let block = [x, y, z];
                    let shared = self.new_shared()?;
                    let mut threads = Vec::with_capacity(n as usize);
                    for l in 0..n {
                        let mut t = Thread::new(self.body_frame(args)?);
                        t.block = Some(block);
                        t.tid = Some([l % bx, (l / bx) % by, l / (bx * by)]);
                        t.linear = l;
                        t.shared = Some(shared);
                        threads.push(t);
                    }
                    self.threads += u64::from(n);
                    self.blocks += 1;
                    let mut group = Group::block(threads, block);
                    // A block-level group binds every barrier: it never
                    // reports a wait upwards.
                    self.run_group(&mut group)?;
                    self.free_shared(shared);
                }
            }
        }
        Ok(())
    }

    fn run_launch_form(&mut self, args: &[Arg]) -> Result<(), InterpError> {
        let mut t = Thread::new(self.body_frame(args)?);
        self.threads += 1;
        self.run_thread(&mut t)?;
        match t.state {
            State::Waiting(w) => Err(self.unbound_sync(&t, w)),
            _ => Ok(()),
        }
    }
}
