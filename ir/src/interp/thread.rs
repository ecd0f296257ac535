//! One thread of execution as an explicit state machine.
//!
//! A [`Thread`] is a stack of call [`Frame`]s; each frame has a dense
//! environment (one `u64` per value of its function) and a stack of region
//! [`Cursor`]s, each remembering where it is in its region and what to do
//! at the region's terminator (loop state included). Nothing lives on the
//! Rust stack between ops, so the scheduler can suspend a thread at any
//! barrier or warp op and resume it later.

use super::error::InterpError;
use super::eval::{self, Scalar};
use super::memory::{Access, Origin};
use super::printf::{self, PrintfArg, PrintfError};
use super::sched::Group;
use super::{math, Exec, TexRequest};
use crate::func::{Op, Region};
use crate::module::{FuncId, GlobalKind};
use crate::ops::{BarrierScope, Callee, OpKind, TexKind};
use crate::types::{Space, Type};

/// Deepest call stack a thread may build.
pub const MAX_CALL_DEPTH: usize = 1024;

/// What a cursor's region does at its terminator.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Ctx {
    /// A function body: ends with `return`.
    Body,
    /// An `if` arm: the yielded values are the op's results.
    If(Op),
    /// A `for` body at induction value `iv`.
    For {
        op: Op,
        iv: u64,
        ub: u64,
        step: u64,
        width: u32,
        unsigned: bool,
    },
    /// A `while` before-region: ends with `condition`.
    WhileBefore(Op),
    /// A `while` after-region: yields the next before-arguments.
    WhileAfter(Op),
    /// One iteration of a `parallel`: the thread ends at its `yield`.
    Parallel,
}

/// A position in a region.
#[derive(Clone, Debug)]
pub(crate) struct Cursor {
    pub region: Region,
    pub pos: usize,
    pub ctx: Ctx,
}

/// One function activation.
#[derive(Clone, Debug)]
pub(crate) struct Frame {
    pub func: FuncId,
    /// Value bits, indexed by value index.
    pub env: Vec<u64>,
    pub cursors: Vec<Cursor>,
    /// Private allocations to free when the frame ends.
    pub allocas: Vec<u64>,
    /// The `call` op of the caller, whose results the `return` sets.
    pub call: Option<Op>,
    /// The frame is a parallel iteration's copy of its parent's frame: it
    /// ends at the iteration's `yield`, and `return` is not allowed.
    pub parallel_child: bool,
}

/// What a thread waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WaitKind {
    /// A block barrier; the counts aggregate `barrier.reduce` predicates
    /// over the waiting threads (for a lane group, over all its lanes).
    Block { n_true: u64, n_total: u64 },
    /// A warp-collective op with its mask and operands (shuffle: value,
    /// lane/delta, width; vote: predicate).
    Warp { mask: u32, args: [u64; 3] },
}

/// A suspended thread's barrier or warp op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Wait {
    pub func: FuncId,
    pub op: Op,
    pub kind: WaitKind,
}

/// Where a thread is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum State {
    Running,
    Finished,
    Waiting(Wait),
}

/// A thread: frames, scheduling state and its ids.
#[derive(Debug)]
pub(crate) struct Thread {
    pub frames: Vec<Frame>,
    pub state: State,
    /// The parallel op the thread is executing, with its iterations.
    pub group: Option<Box<Group>>,
    /// `blockIdx`, when the thread belongs to a block.
    pub block: Option<[u32; 3]>,
    /// `threadIdx`, when the thread is a thread of a block.
    pub tid: Option<[u32; 3]>,
    /// Linear thread id within the block.
    pub linear: u32,
    /// Index of the block's shared memory instance.
    pub shared: Option<usize>,
    /// Lanes of this thread's warp that have not finished, set by the
    /// scheduler each time the thread is resumed.
    pub active_mask: u32,
    /// Ops executed (for `clock`).
    pub clock: u64,
}

/// Why a thread stopped running.
pub(crate) enum Event {
    Finished,
    Wait(Wait),
    Spawn(Box<Group>),
}

impl Thread {
    /// A thread about to run `frame`.
    pub fn new(frame: Frame) -> Thread {
        Thread {
            frames: vec![frame],
            state: State::Running,
            group: None,
            block: None,
            tid: None,
            linear: 0,
            shared: None,
            active_mask: 1,
            clock: 0,
        }
    }
}

/// Sets a region's arguments; `false` if the counts differ.
pub(crate) fn set_args(env: &mut [u64], args: &[crate::func::Value], vals: &[u64]) -> bool {
    if args.len() != vals.len() {
        return false;
    }
    for (a, &v) in args.iter().zip(vals) {
        env[a.index()] = v;
    }
    true
}

impl Exec<'_> {
    /// Runs `t` until it finishes or waits; sets its state.
    pub(crate) fn run_thread(&mut self, t: &mut Thread) -> Result<(), InterpError> {
        loop {
            if let Some(g) = t.group.as_deref_mut() {
                match self.run_group(g)? {
                    None => t.group = None,
                    Some(w) => {
                        t.state = State::Waiting(w);
                        return Ok(());
                    }
                }
            }
            match self.step(t)? {
                Event::Finished => {
                    t.state = State::Finished;
                    return Ok(());
                }
                Event::Wait(w) => {
                    t.state = State::Waiting(w);
                    return Ok(());
                }
                Event::Spawn(g) => t.group = Some(g),
            }
        }
    }

    /// Frees a finished frame's private allocations.
    fn end_frame(&mut self, frame: &Frame) {
        for &p in &frame.allocas {
            // A frame's allocas are live until here; a failure would only
            // mean the launch already released them.
            let _ = self.mem.free_device(p);
        }
    }

    /// Executes ops of `t` until an event.
    fn step(&mut self, t: &mut Thread) -> Result<Event, InterpError> {
        let module = self.module;
        let Thread {
            frames,
            block,
            tid,
            linear,
            shared,
            active_mask,
            clock,
            ..
        } = t;
        let who = (*block, *tid);
        let mut vals: Vec<u64> = Vec::new();
        loop {
            let depth = frames.len();
            let Some(frame) = frames.last_mut() else {
                return Ok(Event::Finished);
            };
            let fid = frame.func;
            let func = &module.functions[fid];
            let info = &self.infos[fid.index()];
            let Some(cur) = frame.cursors.last_mut() else {
                return Err(self.err_at_func(who, fid, "frame without an active region"));
            };
            let Some(&op) = func.regions[cur.region].ops.get(cur.pos) else {
                let r = cur.region;
                return Err(self.err_at_func(
                    who,
                    fid,
                    &format!("region {r:?} ends without a terminator"),
                ));
            };
            cur.pos += 1;
            self.steps += 1;
            *clock += 1;
            if self.steps > self.limit {
                return Err(InterpError::StepLimit {
                    site: self.site(who, fid, op),
                    limit: self.limit,
                });
            }
            let od = &func.ops[op];
            let env = &mut frame.env;
            let malformed = |s: &Self, msg: &str| InterpError::Malformed {
                site: s.site(who, fid, op),
                message: format!("`{}`: {msg}", od.kind.mnemonic()),
            };
            let shape = |s: &Self, n_ops: usize, n_res: usize| {
                if od.operands.len() == n_ops && od.results.len() == n_res {
                    Ok(())
                } else {
                    Err(malformed(
                        s,
                        &format!(
                            "expected {n_ops} operands and {n_res} results, found {} and {}",
                            od.operands.len(),
                            od.results.len()
                        ),
                    ))
                }
            };
            let opv = |i: usize| env[od.operands[i].index()];
            let oty = |i: usize| info.vty[od.operands[i].index()];
            let rty = |i: usize| info.vty[od.results[i].index()];
            let eval_err = |s: &Self, e: eval::EvalError| s.eval_error(who, fid, op, e);
            let mem_err = |s: &Self, f| InterpError::Memory {
                site: s.site(who, fid, op),
                message: s.mem.describe(&f, Some(module)),
            };
            let result: u64 = match &od.kind {
                OpKind::Const { bits } => {
                    shape(self, 0, 1)?;
                    rty(0).normalize(*bits)
                }
                OpKind::Undef => {
                    shape(self, 0, 1)?;
                    0
                }
                OpKind::Binary(b, flags) => {
                    shape(self, 2, 1)?;
                    if flags.nsw {
                        if let Scalar::Int(w) = rty(0) {
                            if eval::signed_overflow(*b, w, opv(0), opv(1)) {
                                return Err(eval_err(
                                    self,
                                    eval::EvalError::Overflow(format!(
                                        "`{} nsw` overflowed: {} and {} as {w}-bit signed values",
                                        b.name(),
                                        eval::sext(w, opv(0)),
                                        eval::sext(w, opv(1))
                                    )),
                                ));
                            }
                        }
                    }
                    eval::binary(*b, rty(0), opv(0), opv(1)).map_err(|e| eval_err(self, e))?
                }
                OpKind::Unary(u) => {
                    shape(self, 1, 1)?;
                    eval::unary(*u, rty(0), opv(0)).map_err(|e| eval_err(self, e))?
                }
                OpKind::Cmp(p) => {
                    shape(self, 2, 1)?;
                    u64::from(eval::cmp(*p, oty(0), opv(0), opv(1)).map_err(|e| eval_err(self, e))?)
                }
                OpKind::Cast(c) => {
                    shape(self, 1, 1)?;
                    eval::cast(*c, oty(0), rty(0), opv(0)).map_err(|e| eval_err(self, e))?
                }
                OpKind::Select => {
                    shape(self, 3, 1)?;
                    if opv(0) & 1 != 0 {
                        opv(1)
                    } else {
                        opv(2)
                    }
                }
                OpKind::If => {
                    if od.operands.len() != 1 || od.regions.len() != 2 {
                        return Err(malformed(self, "expected a condition and two regions"));
                    }
                    let region = od.regions[if opv(0) & 1 != 0 { 0 } else { 1 }];
                    if !func.regions[region].args.is_empty() {
                        return Err(malformed(self, "an arm takes arguments"));
                    }
                    frame.cursors.push(Cursor {
                        region,
                        pos: 0,
                        ctx: Ctx::If(op),
                    });
                    continue;
                }
                OpKind::For { unsigned } => {
                    let n = od.operands.len();
                    if n < 3 || od.regions.len() != 1 || od.results.len() != n - 3 {
                        return Err(malformed(
                            self,
                            "expected lb, ub, step, inits and one region",
                        ));
                    }
                    let Some(width) = oty(0).int_width() else {
                        return Err(malformed(self, "bounds are not integers"));
                    };
                    let (lb, ub, step) = (opv(0), opv(1), opv(2));
                    if eval::sext(width, step) <= 0 {
                        return Err(InterpError::InvalidOperation {
                            site: self.site(who, fid, op),
                            message: format!(
                                "`for` step must be positive, found {}",
                                eval::sext(width, step)
                            ),
                        });
                    }
                    vals.clear();
                    vals.extend(od.operands[3..].iter().map(|v| env[v.index()]));
                    if lt(lb, ub, width, *unsigned) {
                        let body = od.regions[0];
                        let args = &func.regions[body].args;
                        if args.len() != n - 2 {
                            return Err(malformed(self, "body arguments do not match inits"));
                        }
                        env[args[0].index()] = lb;
                        set_args(env, &args[1..], &vals);
                        frame.cursors.push(Cursor {
                            region: body,
                            pos: 0,
                            ctx: Ctx::For {
                                op,
                                iv: lb,
                                ub,
                                step,
                                width,
                                unsigned: *unsigned,
                            },
                        });
                    } else {
                        set_args(env, &od.results, &vals);
                    }
                    continue;
                }
                OpKind::While => {
                    if od.regions.len() != 2 {
                        return Err(malformed(self, "expected two regions"));
                    }
                    vals.clear();
                    vals.extend(od.operands.iter().map(|v| env[v.index()]));
                    let before = od.regions[0];
                    if !set_args(env, &func.regions[before].args, &vals) {
                        return Err(malformed(
                            self,
                            "before-region arguments do not match inits",
                        ));
                    }
                    frame.cursors.push(Cursor {
                        region: before,
                        pos: 0,
                        ctx: Ctx::WhileBefore(op),
                    });
                    continue;
                }
                OpKind::Parallel { level } => {
                    let n = od.operands.len();
                    if !(1..=3).contains(&n) || od.regions.len() != 1 || !od.results.is_empty() {
                        return Err(malformed(self, "expected 1 to 3 bounds and one region"));
                    }
                    let mut ubs = [1u64; 3];
                    for (i, ub) in ubs.iter_mut().enumerate().take(n) {
                        let Some(w) = oty(i).int_width() else {
                            return Err(malformed(self, "bounds are not integers"));
                        };
                        *ub = eval::sext(w, opv(i)).max(0) as u64;
                    }
                    let body = od.regions[0];
                    if func.regions[body].args.len() != n {
                        return Err(malformed(self, "body arguments do not match the bounds"));
                    }
                    let parent = super::sched::Parent {
                        block: *block,
                        tid: *tid,
                        linear: *linear,
                        shared: *shared,
                        clock: *clock,
                    };
                    let g = self.spawn(*level, fid, op, frame, body, ubs, n, parent)?;
                    return Ok(Event::Spawn(g));
                }
                OpKind::Yield => {
                    vals.clear();
                    vals.extend(od.operands.iter().map(|v| env[v.index()]));
                    let Some(cur) = frame.cursors.last_mut() else {
                        return Err(malformed(self, "no region to leave"));
                    };
                    match cur.ctx {
                        Ctx::If(if_op) => {
                            frame.cursors.pop();
                            if !set_args(env, &func.ops[if_op].results, &vals) {
                                return Err(malformed(self, "yields a wrong number of values"));
                            }
                        }
                        Ctx::For {
                            op: for_op,
                            iv,
                            ub,
                            step,
                            width,
                            unsigned,
                        } => {
                            let next = if unsigned {
                                let n = u128::from(iv) + u128::from(step);
                                (n <= u128::from(eval::mask(width, u64::MAX))).then_some(n as u64)
                            } else {
                                let n = i128::from(eval::sext(width, iv))
                                    + i128::from(eval::sext(width, step));
                                let max = if width >= 64 {
                                    i128::from(i64::MAX)
                                } else {
                                    (1i128 << (width - 1)) - 1
                                };
                                (n <= max).then_some(eval::mask(width, n as u64))
                            };
                            match next {
                                Some(next) if lt(next, ub, width, unsigned) => {
                                    let args = &func.regions[cur.region].args;
                                    if args.len() != vals.len() + 1 {
                                        return Err(malformed(
                                            self,
                                            "yields a wrong number of values",
                                        ));
                                    }
                                    env[args[0].index()] = next;
                                    set_args(env, &args[1..], &vals);
                                    cur.pos = 0;
                                    if let Ctx::For { iv, .. } = &mut cur.ctx {
                                        *iv = next;
                                    }
                                }
                                _ => {
                                    frame.cursors.pop();
                                    if !set_args(env, &func.ops[for_op].results, &vals) {
                                        return Err(malformed(
                                            self,
                                            "yields a wrong number of values",
                                        ));
                                    }
                                }
                            }
                        }
                        Ctx::WhileAfter(wop) => {
                            let before = func.ops[wop].regions[0];
                            if !set_args(env, &func.regions[before].args, &vals) {
                                return Err(malformed(self, "yields a wrong number of values"));
                            }
                            *cur = Cursor {
                                region: before,
                                pos: 0,
                                ctx: Ctx::WhileBefore(wop),
                            };
                        }
                        Ctx::Parallel => {
                            frame.cursors.pop();
                            if frame.cursors.is_empty() {
                                if let Some(f) = frames.pop() {
                                    self.end_frame(&f);
                                    self.recycle_env(f.env);
                                }
                                return Ok(Event::Finished);
                            }
                        }
                        Ctx::Body | Ctx::WhileBefore(_) => {
                            return Err(malformed(self, "`yield` ends a region it cannot end"));
                        }
                    }
                    continue;
                }
                OpKind::Condition => {
                    let Some(cur) = frame.cursors.last_mut() else {
                        return Err(malformed(self, "no region to leave"));
                    };
                    let Ctx::WhileBefore(wop) = cur.ctx else {
                        return Err(malformed(self, "`condition` outside a while before-region"));
                    };
                    if od.operands.is_empty() {
                        return Err(malformed(self, "missing the condition"));
                    }
                    vals.clear();
                    vals.extend(od.operands[1..].iter().map(|v| env[v.index()]));
                    let wd = &func.ops[wop];
                    if opv(0) & 1 != 0 {
                        let after = wd.regions[1];
                        if !set_args(env, &func.regions[after].args, &vals) {
                            return Err(malformed(self, "passes a wrong number of values"));
                        }
                        *cur = Cursor {
                            region: after,
                            pos: 0,
                            ctx: Ctx::WhileAfter(wop),
                        };
                    } else {
                        frame.cursors.pop();
                        if !set_args(env, &wd.results, &vals) {
                            return Err(malformed(self, "passes a wrong number of values"));
                        }
                    }
                    continue;
                }
                OpKind::Return => {
                    if frame.parallel_child {
                        return Err(malformed(self, "`return` inside a parallel iteration"));
                    }
                    vals.clear();
                    vals.extend(od.operands.iter().map(|v| env[v.index()]));
                    let Some(done) = frames.pop() else {
                        return Ok(Event::Finished);
                    };
                    self.end_frame(&done);
                    let Some(caller) = frames.last_mut() else {
                        return Ok(Event::Finished);
                    };
                    let Some(call) = done.call else {
                        return Err(malformed(self, "frame without a caller"));
                    };
                    let cf = &module.functions[caller.func];
                    if !set_args(&mut caller.env, &cf.ops[call].results, &vals) {
                        return Err(malformed(self, "returns a wrong number of values"));
                    }
                    continue;
                }
                OpKind::Call(Callee::Func(callee)) => {
                    let cf = &module.functions[*callee];
                    let cinfo = &self.infos[callee.index()];
                    if let Err(e) = &cinfo.handles {
                        return Err(malformed(self, &format!("callee `{}`: {e}", cf.name)));
                    }
                    if cf.kind != crate::func::FunctionKind::Device {
                        return Err(malformed(
                            self,
                            &format!("`{}` is not a device function", cf.name),
                        ));
                    }
                    if od.results.len() != cf.results.len() {
                        return Err(malformed(self, "result count differs from the callee's"));
                    }
                    if depth >= MAX_CALL_DEPTH {
                        return Err(InterpError::CallDepth {
                            site: self.site(who, fid, op),
                            depth: MAX_CALL_DEPTH,
                        });
                    }
                    vals.clear();
                    vals.extend(od.operands.iter().map(|v| env[v.index()]));
                    let mut new_env = vec![0u64; cf.values.len()];
                    if !set_args(&mut new_env, cf.param_values(), &vals) {
                        return Err(malformed(self, "argument count differs from the callee's"));
                    }
                    frames.push(Frame {
                        func: *callee,
                        env: new_env,
                        cursors: vec![Cursor {
                            region: cf.body,
                            pos: 0,
                            ctx: Ctx::Body,
                        }],
                        allocas: Vec::new(),
                        call: Some(op),
                        parallel_child: false,
                    });
                    continue;
                }
                OpKind::Call(Callee::Extern(name)) => {
                    if od.results.len() != 1 || od.operands.is_empty() {
                        return Err(malformed(self, "expected arguments and one result"));
                    }
                    let kind = rty(0);
                    if od.operands.iter().any(|v| info.vty[v.index()] != kind) {
                        return Err(malformed(
                            self,
                            &format!("`{name}`: argument types differ from the result type"),
                        ));
                    }
                    let r = match kind {
                        Scalar::Float(crate::FloatKind::F32) => {
                            let a: Vec<f32> = od
                                .operands
                                .iter()
                                .map(|v| f32::from_bits(env[v.index()] as u32))
                                .collect();
                            math::call_f32(name, &a).map(|x| u64::from(x.to_bits()))
                        }
                        Scalar::Float(crate::FloatKind::F64) => {
                            let a: Vec<f64> = od
                                .operands
                                .iter()
                                .map(|v| f64::from_bits(env[v.index()]))
                                .collect();
                            math::call_f64(name, &a).map(f64::to_bits)
                        }
                        _ => None,
                    };
                    r.ok_or_else(|| {
                        malformed(
                            self,
                            &format!(
                                "unknown extern `{name}` for {} {kind:?} arguments",
                                od.operands.len()
                            ),
                        )
                    })?
                }
                OpKind::Alloca { space, ty } => {
                    shape(self, 0, 1)?;
                    if *space == Space::Shared && !self.launch_form {
                        return Err(malformed(self, "`alloca shared` in a kernel-form function"));
                    }
                    if !matches!(space, Space::Private | Space::Shared) {
                        return Err(malformed(self, &format!("alloca in {space} space")));
                    }
                    let size = module.types.size_of(*ty);
                    let p = self
                        .mem
                        .alloc_transient(*space, size, Origin::Alloca(fid, op))
                        .map_err(|f| mem_err(self, f))?;
                    frame.allocas.push(p);
                    p
                }
                OpKind::Load { speculative, .. } => {
                    shape(self, 1, 1)?;
                    let ty = rty(0);
                    if ty == Scalar::Aggregate {
                        return Err(malformed(self, "loads a non-scalar"));
                    }
                    // A speculative load outside memory reads an
                    // unspecified value, which the program discards.
                    let v = match self.mem.load(opv(0), ty.bytes()) {
                        Err(_) if *speculative => 0,
                        r => r.map_err(|f| mem_err(self, f))?,
                    };
                    ty.normalize(v)
                }
                OpKind::Store { .. } => {
                    shape(self, 2, 0)?;
                    let ty = oty(1);
                    if ty == Scalar::Aggregate {
                        return Err(malformed(self, "stores a non-scalar"));
                    }
                    self.mem
                        .store(Access::Store, opv(0), ty.bytes(), opv(1))
                        .map_err(|f| mem_err(self, f))?;
                    continue;
                }
                OpKind::PtrIndex { elem } => {
                    shape(self, 2, 1)?;
                    let Some(w) = oty(1).int_width() else {
                        return Err(malformed(self, "index is not an integer"));
                    };
                    let size = module.types.size_of(*elem);
                    opv(0).wrapping_add((eval::sext(w, opv(1)) as u64).wrapping_mul(size))
                }
                OpKind::PtrField { ty, field } => {
                    shape(self, 1, 1)?;
                    let Type::Struct(st) = &module.types[*ty] else {
                        return Err(malformed(self, "type is not a struct"));
                    };
                    let Some(f) = st.fields.get(*field as usize) else {
                        return Err(malformed(self, "no such field"));
                    };
                    opv(0).wrapping_add(f.offset)
                }
                OpKind::GlobalAddr(g) => {
                    shape(self, 0, 1)?;
                    let gl = &module.globals[*g];
                    if gl.kind != GlobalKind::Variable {
                        return Err(malformed(self, "the global is a texture reference"));
                    }
                    if gl.space == Space::Shared {
                        match shared
                            .and_then(|s| self.shared.get(s))
                            .and_then(|s| s.as_ref())
                        {
                            Some(inst) => inst.globals[g.index()],
                            None => {
                                return Err(InterpError::InvalidOperation {
                                    site: self.site(who, fid, op),
                                    message: format!(
                                        "shared variable @{} used outside any block",
                                        gl.name
                                    ),
                                })
                            }
                        }
                    } else {
                        self.globals[g.index()]
                    }
                }
                OpKind::DynamicShared => {
                    shape(self, 0, 1)?;
                    match shared
                        .and_then(|s| self.shared.get(s))
                        .and_then(|s| s.as_ref())
                    {
                        Some(inst) => inst.dynamic,
                        None => {
                            return Err(InterpError::InvalidOperation {
                                site: self.site(who, fid, op),
                                message: "dynamic shared memory used outside any block".into(),
                            })
                        }
                    }
                }
                OpKind::Memcpy | OpKind::Memset => {
                    shape(self, 3, 0)?;
                    let Some(w) = oty(2).int_width() else {
                        return Err(malformed(self, "length is not an integer"));
                    };
                    let len = eval::mask(w, opv(2));
                    let bytes = if matches!(od.kind, OpKind::Memcpy) {
                        self.mem
                            .read_bytes(Access::CopyFrom, opv(1), len)
                            .map_err(|f| mem_err(self, f))?
                    } else {
                        if len > super::memory::MAX_ALLOC {
                            return Err(malformed(self, "length exceeds any allocation"));
                        }
                        vec![opv(1) as u8; len as usize]
                    };
                    self.mem
                        .write_bytes(Access::CopyTo, opv(0), &bytes, true)
                        .map_err(|f| mem_err(self, f))?;
                    continue;
                }
                OpKind::AtomicRmw { op: aop, .. } => {
                    shape(self, 2, 1)?;
                    let ty = rty(0);
                    let (p, n) = (opv(0), ty.bytes());
                    self.mem.check_atomic(p, n).map_err(|f| mem_err(self, f))?;
                    let old = ty.normalize(self.mem.load(p, n).map_err(|f| mem_err(self, f))?);
                    let new = eval::atomic(*aop, ty, old, opv(1)).map_err(|e| eval_err(self, e))?;
                    self.mem
                        .store(Access::Atomic, p, n, new)
                        .map_err(|f| mem_err(self, f))?;
                    old
                }
                OpKind::AtomicCas { .. } => {
                    shape(self, 3, 1)?;
                    let ty = rty(0);
                    let (p, n) = (opv(0), ty.bytes());
                    self.mem.check_atomic(p, n).map_err(|f| mem_err(self, f))?;
                    let old = ty.normalize(self.mem.load(p, n).map_err(|f| mem_err(self, f))?);
                    if old == opv(1) {
                        self.mem
                            .store(Access::Atomic, p, n, opv(2))
                            .map_err(|f| mem_err(self, f))?;
                    }
                    old
                }
                OpKind::Fence { .. } | OpKind::Prefetch => continue,
                OpKind::ThreadId(d) => u64::from(tid.unwrap_or([0; 3])[d.index()]),
                OpKind::BlockId(d) => u64::from(block.unwrap_or([0; 3])[d.index()]),
                OpKind::BlockDim(d) => u64::from(self.cfg.block[d.index()]),
                OpKind::GridDim(d) => u64::from(self.cfg.grid[d.index()]),
                OpKind::LaneId => u64::from(*linear % 32),
                OpKind::WarpSize => 32,
                OpKind::ActiveMask => {
                    // Resolved with the warp (see `sched`): the lanes that
                    // reach it together, once the rest of the warp has
                    // moved on, finished or stopped elsewhere.
                    let _ = active_mask;
                    return Ok(Event::Wait(Wait {
                        func: fid,
                        op,
                        kind: WaitKind::Warp {
                            mask: 0,
                            args: [0; 3],
                        },
                    }));
                }
                OpKind::Barrier(BarrierScope::Block) => {
                    shape(self, 0, 0)?;
                    return Ok(Event::Wait(Wait {
                        func: fid,
                        op,
                        kind: WaitKind::Block {
                            n_true: 0,
                            n_total: 1,
                        },
                    }));
                }
                OpKind::BarrierReduce(_) => {
                    shape(self, 1, 1)?;
                    return Ok(Event::Wait(Wait {
                        func: fid,
                        op,
                        kind: WaitKind::Block {
                            n_true: opv(0) & 1,
                            n_total: 1,
                        },
                    }));
                }
                OpKind::Barrier(BarrierScope::Warp) => {
                    shape(self, 1, 0)?;
                    return Ok(Event::Wait(Wait {
                        func: fid,
                        op,
                        kind: WaitKind::Warp {
                            mask: opv(0) as u32,
                            args: [0; 3],
                        },
                    }));
                }
                OpKind::Shuffle(_) => {
                    shape(self, 4, 1)?;
                    return Ok(Event::Wait(Wait {
                        func: fid,
                        op,
                        kind: WaitKind::Warp {
                            mask: opv(0) as u32,
                            args: [opv(1), opv(2), opv(3)],
                        },
                    }));
                }
                OpKind::Vote(_) => {
                    shape(self, 2, 1)?;
                    return Ok(Event::Wait(Wait {
                        func: fid,
                        op,
                        kind: WaitKind::Warp {
                            mask: opv(0) as u32,
                            args: [opv(1) & 1, 0, 0],
                        },
                    }));
                }
                OpKind::TexFetch(TexKind::Fetch1DLane) => {
                    if od.operands.len() != 3 || od.results.len() != 1 {
                        return Err(malformed(
                            self,
                            "expected a handle, a coordinate, a channel and 1 result",
                        ));
                    }
                    let texel = self
                        .textures
                        .fetch(&TexRequest {
                            handle: opv(0),
                            kind: TexKind::Fetch1D,
                            coords: &[opv(1)],
                            results: 4,
                        })
                        .map_err(|message| InterpError::Texture {
                            site: self.site(who, fid, op),
                            message,
                        })?;
                    let lane = (opv(2) as u32).min(3) as usize;
                    let Some(&v) = texel.get(lane) else {
                        return Err(InterpError::Texture {
                            site: self.site(who, fid, op),
                            message: format!(
                                "resolver returned {} values, expected 4",
                                texel.len()
                            ),
                        });
                    };
                    let r = od.results[0];
                    env[r.index()] = info.vty[r.index()].normalize(v);
                    continue;
                }
                OpKind::TexFetch(kind) => {
                    let n = od.results.len();
                    if od.operands.len() != 1 + kind.coords() || !(1..=4).contains(&n) {
                        return Err(malformed(
                            self,
                            "expected a handle, its coordinates and 1 to 4 results",
                        ));
                    }
                    let coords: Vec<u64> =
                        od.operands[1..].iter().map(|v| env[v.index()]).collect();
                    let texel = self
                        .textures
                        .fetch(&TexRequest {
                            handle: opv(0),
                            kind: *kind,
                            coords: &coords,
                            results: n,
                        })
                        .map_err(|message| InterpError::Texture {
                            site: self.site(who, fid, op),
                            message,
                        })?;
                    if texel.len() != n {
                        return Err(InterpError::Texture {
                            site: self.site(who, fid, op),
                            message: format!(
                                "resolver returned {} values, expected {n}",
                                texel.len()
                            ),
                        });
                    }
                    for (i, r) in od.results.iter().enumerate() {
                        env[r.index()] = info.vty[r.index()].normalize(texel[i]);
                    }
                    continue;
                }
                OpKind::AllocDistinct => {
                    let ptrs: Vec<u64> = (0..od.operands.len()).map(opv).collect();
                    u64::from(self.mem.distinct_host_buffers(&ptrs))
                }
                OpKind::TexRef(g) => {
                    shape(self, 0, 1)?;
                    super::texture_ref_handle(*g)
                }
                OpKind::Clock { wide } => {
                    shape(self, 0, 1)?;
                    if *wide {
                        *clock
                    } else {
                        eval::mask(32, *clock)
                    }
                }
                OpKind::Printf { format } => {
                    if !od.results.is_empty() {
                        return Err(malformed(self, "printf has no results"));
                    }
                    let args: Vec<PrintfArg> = od
                        .operands
                        .iter()
                        .map(|v| PrintfArg {
                            bits: env[v.index()],
                            ty: info.vty[v.index()],
                        })
                        .collect();
                    let mem = &*self.mem;
                    let text = printf::format(format, &args, &|p, max| mem.read_cstr(p, max));
                    match text {
                        Ok(s) => self.printf.push_str(&s),
                        Err(PrintfError::Memory(f)) => return Err(mem_err(self, f)),
                        Err(PrintfError::Format(m)) => {
                            return Err(InterpError::InvalidOperation {
                                site: self.site(who, fid, op),
                                message: format!("printf: {m}"),
                            })
                        }
                    }
                    continue;
                }
                OpKind::Trap { message, .. } => {
                    return Err(InterpError::Trap {
                        site: self.site(who, fid, op),
                        message: message.clone(),
                    })
                }
            };
            // Single-result ops land here.
            match od.results.as_slice() {
                [r] => env[r.index()] = result,
                _ => return Err(malformed(self, "expected exactly one result")),
            }
        }
    }
}

/// `a < b` at width `w`.
fn lt(a: u64, b: u64, w: u32, unsigned: bool) -> bool {
    if unsigned {
        a < b
    } else {
        eval::sext(w, a) < eval::sext(w, b)
    }
}
