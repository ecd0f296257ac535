//! From cucc IR to the lowering IR, checking that the kernel fits.
//!
//! What fits: counted loops (`for` with constant lower bound and step, and
//! an upper bound that is a constant or, for unit loops from 0, an integer
//! parameter; `parallel` loops, run one iteration after another), whose
//! bodies load and store f32/f64 data through pointer parameters at offsets
//! affine in the loop variables and integer parameters, and compute with
//! FP arithmetic; an `if` decided at compile time runs its taken arm, one
//! on a thread index that changes once splits its loop there; a `while`
//! whose trip count can be evaluated runs counted or unrolled; shared
//! memory and cpuify's private arrays are local memory (`locals.rs`).
//! Everything else is rejected with the construct and its source location: that is what SSR streams and FREP can express, and a
//! silent fallback would hide why a kernel cannot run on the device.

mod index;
mod locals;
mod reject;
mod while_loop;

use index::{product, sign_extend};
use reject::rejection;

use super::lir::{Access, Affine, Count, FOp, Fmt, Func, Loop, Node, ParamKind, Var, F, FV};
use super::Diagnostic;
use cucc_ir::{
    BinOp, Callee, CastOp, FloatKind, Function, Level, Loc, Module, Op, OpKind, Region, Type, UnOp,
    Value,
};
use std::collections::HashMap;

/// Lowers `func` of `module`.
pub fn lower(
    module: &Module,
    func: &Function,
    options: &super::Options,
) -> Result<Func, Diagnostic> {
    let users = users_of(func);
    let mut l = Lowerer {
        module,
        func,
        users,
        out: Func {
            name: func.name.clone(),
            params: Vec::new(),
            noalias: true,
            body: Vec::new(),
            next_f: 0,
            next_x: 0,
            next_loop: 0,
            param_regs: Vec::new(),
            param_hi: Vec::new(),
            zero: None,
            locals: Vec::new(),
        },
        param_index: HashMap::new(),
        ints: HashMap::new(),
        ptrs: HashMap::new(),
        floats: HashMap::new(),
        fused: HashMap::new(),
        prologue: Vec::new(),
        launch: options.launch,
        known_ints: options.known_ints,
        share: options.share,
        addresses: HashMap::new(),
        carried_addresses: HashMap::new(),
        counts: HashMap::new(),
        undecided: false,
        split_hint: None,
        local_top: options.local_top,
        dynamic_shared: options.dynamic_shared,
        local_of: HashMap::new(),
        local_private: Vec::new(),
        int_memory: HashMap::new(),
    };
    l.params()?;
    let body = l.region(func.body)?;
    let mut all = std::mem::take(&mut l.prologue);
    all.extend(body);
    l.out.body = all;
    l.lay_out_locals()?;
    Ok(l.out)
}

struct Lowerer<'a> {
    module: &'a Module,
    func: &'a Function,
    users: HashMap<Value, Vec<Op>>,
    out: Func,
    /// Implicit launch parameters already added.
    param_index: HashMap<ParamKind, usize>,
    ints: HashMap<Value, Affine>,
    ptrs: HashMap<Value, Access>,
    floats: HashMap<Value, FV>,
    /// `fmul` results folded into the `fadd` that uses them.
    fused: HashMap<Value, (Value, Value)>,
    /// FP constants, materialized once before everything.
    prologue: Vec<Node>,
    /// Launch dimensions, when known.
    launch: Option<super::LaunchDims>,
    /// Integer arguments known at compile time.
    known_ints: [Option<i32>; 8],
    /// The one core's share of the grid to compile, if not all of it.
    share: Option<super::CoreShare>,
    /// Integers that are addresses into a buffer (PTX passes pointers as
    /// `u64` parameters and computes addresses in integers), by buffer.
    addresses: HashMap<Value, usize>,
    /// Addresses carried around loops (`base + step · iteration`).
    carried_addresses: HashMap<Value, Access>,
    /// Constant loop counts, by loop number.
    counts: HashMap<u32, u32>,
    /// Set when a condition could not be decided over the loops' ranges
    /// (the enclosing `parallel` may then peel its last iteration).
    undecided: bool,
    /// An undecided `if` that holds on one side of an iteration of one
    /// loop and fails on the other: (loop, first iteration of the second
    /// part), for the enclosing `parallel` to split at.
    split_hint: Option<(u32, u32)>,
    /// Where the core's local memory ends, if it may have any.
    local_top: Option<u32>,
    /// Bytes of dynamic shared memory per block.
    dynamic_shared: u32,
    /// Each alloca's local (`None`: the dynamic shared memory), so that a
    /// region lowered twice (a peeled iteration) uses the same one.
    local_of: HashMap<Option<Op>, usize>,
    /// Whether each local is a private array (sized by its accesses).
    local_private: Vec<bool>,
    /// Integers stored in local memory at constant offsets, all threads
    /// and iterations storing the same value (cpuify's carrier of a loop
    /// counter across a barrier): what a later load reads.
    int_memory: HashMap<(usize, i64), Affine>,
}

impl<'a> Lowerer<'a> {
    fn err(&self, loc: Loc, construct: &str, message: impl Into<String>) -> Diagnostic {
        let loc = if loc.is_unknown() { self.func.loc } else { loc };
        Diagnostic {
            location: self.module.describe_loc(loc),
            kernel: self.func.name.clone(),
            construct: construct.to_string(),
            message: message.into(),
        }
    }

    fn ty(&self, v: Value) -> &'a Type {
        &self.module.types[self.func.values[v].ty]
    }

    fn params(&mut self) -> Result<(), Diagnostic> {
        let args = self.func.regions[self.func.body].args.clone();
        for (i, &a) in args.iter().enumerate() {
            let kind = match self.ty(a) {
                Type::Ptr(_) => {
                    if self.func.params[i].byval.is_some() {
                        return Err(self.err(
                            self.func.loc,
                            "by-value struct parameter",
                            "only pointers, integers, f32 and f64 can be passed to the device",
                        ));
                    }
                    self.out.noalias &= self.func.params[i].noalias;
                    self.ptrs.insert(
                        a,
                        Access {
                            buf: i,
                            offset: Affine::default(),
                        },
                    );
                    ParamKind::Ptr
                }
                Type::Int(64) if self.address_param(a) => {
                    self.out.noalias &= self.func.params[i].noalias;
                    ParamKind::Ptr
                }
                Type::Int(_) => {
                    let value = match self.known_ints.get(i).copied().flatten() {
                        Some(k) => Affine::constant(i64::from(k)),
                        None => Affine::var(Var::Param(i)),
                    };
                    self.ints.insert(a, value);
                    ParamKind::Int
                }
                Type::Float(k @ (FloatKind::F32 | FloatKind::F64)) => {
                    let (fmt, kind) = match k {
                        FloatKind::F32 => (Fmt::S, ParamKind::F32),
                        _ => (Fmt::D, ParamKind::F64),
                    };
                    let dst = self.out.new_f();
                    self.prologue.push(Node::FParam { dst, fmt, param: i });
                    self.floats.insert(a, dst);
                    kind
                }
                _ => {
                    return Err(self.err(
                        self.func.loc,
                        "parameter type",
                        "only pointers, integers, f32 and f64 can be passed to the device",
                    ))
                }
            };
            self.out.params.push(kind);
        }
        Ok(())
    }

    /// Whether 64-bit integer parameter `a` is a buffer's address
    /// ([`address_values`]); records the integers derived from it.
    fn address_param(&mut self, a: Value) -> bool {
        let buf = self.func.regions[self.func.body]
            .args
            .iter()
            .position(|&x| x == a)
            .unwrap_or(usize::MAX);
        match address_values(self.func, &self.users, a) {
            Some(derived) => {
                for v in derived {
                    self.addresses.insert(v, buf);
                }
                true
            }
            None => false,
        }
    }

    fn implicit(&mut self, kind: ParamKind) -> usize {
        if let Some(&i) = self.param_index.get(&kind) {
            return i;
        }
        self.out.params.push(kind);
        let i = self.out.params.len() - 1;
        self.param_index.insert(kind, i);
        i
    }

    fn region(&mut self, region: Region) -> Result<Vec<Node>, Diagnostic> {
        let mut body = Vec::new();
        for &op in &self.func.regions[region].ops {
            self.op(op, &mut body)?;
        }
        Ok(body)
    }

    fn fmt_of(&self, v: Value, loc: Loc) -> Result<Fmt, Diagnostic> {
        match self.ty(v) {
            Type::Float(FloatKind::F64) => Ok(Fmt::D),
            Type::Float(FloatKind::F32) => Ok(Fmt::S),
            _ => {
                let ty = self.module.types.display(self.func.values[v].ty);
                Err(self.err(
                    loc,
                    &format!("{ty} arithmetic"),
                    "only f32 and f64 data can be computed on the FP subsystem",
                ))
            }
        }
    }

    fn float(&mut self, v: Value, loc: Loc) -> Result<F, Diagnostic> {
        match self.floats.get(&v) {
            Some(&f) => Ok(F::V(f)),
            None => Err(self.err(
                loc,
                "float value",
                "a value computed outside the supported constructs",
            )),
        }
    }

    fn op(&mut self, op: Op, body: &mut Vec<Node>) -> Result<(), Diagnostic> {
        let data = &self.func.ops[op];
        let loc = data.loc;
        let result = data.results.first().copied();
        match &data.kind {
            OpKind::Const { bits } => {
                let Some(r) = result else { return Ok(()) };
                match self.ty(r) {
                    Type::Int(w) => {
                        let v = sign_extend(*bits, *w);
                        self.ints.insert(r, Affine::constant(v));
                    }
                    Type::Float(FloatKind::F64) => {
                        let dst = self.out.new_f();
                        self.prologue.push(Node::Const {
                            dst,
                            fmt: Fmt::D,
                            value: f64::from_bits(*bits),
                            tmp: None,
                        });
                        self.floats.insert(r, dst);
                    }
                    Type::Float(FloatKind::F32) => {
                        let dst = self.out.new_f();
                        self.prologue.push(Node::Const {
                            dst,
                            fmt: Fmt::S,
                            value: f64::from(f32::from_bits(*bits as u32)),
                            tmp: None,
                        });
                        self.floats.insert(r, dst);
                    }
                    _ => {}
                }
            }
            // Integer arithmetic and address computation are evaluated
            // when an address or bound needs them.
            OpKind::Binary(b, _) if !b.is_float() => {}
            OpKind::Cast(
                CastOp::SExt | CastOp::ZExt | CastOp::Trunc | CastOp::SpaceCast | CastOp::IntToPtr,
            ) => {}
            OpKind::PtrIndex { .. } | OpKind::GridDim(_) | OpKind::BlockDim(_) => {}
            // Local memory is placed when an access first uses it.
            OpKind::Alloca { .. } | OpKind::DynamicShared if self.local_top.is_some() => {}
            // Integer comparisons are evaluated when an `if` needs them.
            OpKind::Cmp(p) if !p.is_float() => {}
            // Integer selects too (cpuify's clamped bounds).
            OpKind::Select if result.is_some_and(|r| self.ty(r).is_int()) => {}
            OpKind::Binary(b, _) => self.float_binary(op, *b, body)?,
            OpKind::Unary(UnOp::FNeg) => {
                let Some(r) = result else {
                    return Err(self.err(loc, "fneg", "malformed op"));
                };
                let fmt = self.fmt_of(r, loc)?;
                let a = self.float(data.input(), loc)?;
                let dst = self.out.new_f();
                body.push(Node::Arith {
                    op: FOp::Neg,
                    fmt,
                    dst: F::V(dst),
                    srcs: vec![a],
                });
                self.floats.insert(r, dst);
            }
            OpKind::Load { volatile, .. } => {
                let Some(r) = result else {
                    return Err(self.err(loc, "load", "malformed op"));
                };
                let p = data.ptr();
                if *volatile {
                    return Err(self.err(loc, "volatile load", "streams reorder memory accesses"));
                }
                if self.ty(r).is_int() {
                    if let Some(value) = self.uniform_int_load(p, loc) {
                        self.ints.insert(r, value);
                        return Ok(());
                    }
                }
                if !self.ty(r).is_float() {
                    return Err(self.err(
                        loc,
                        "integer load",
                        "values read from memory cannot index or bound loops (data-dependent indexing is not affine); only f32/f64 data is loaded",
                    ));
                }
                let fmt = self.fmt_of(r, loc)?;
                let at = self.pointer(p, loc)?;
                let dst = self.out.new_f();
                body.push(Node::Load { dst, fmt, at });
                self.floats.insert(r, dst);
            }
            OpKind::Store { volatile } => {
                let (p, v) = (data.ptr(), data.value());
                if *volatile {
                    return Err(self.err(loc, "volatile store", "streams reorder memory accesses"));
                }
                if self.ty(v).is_int() && self.uniform_int_store(p, v, loc)? {
                    return Ok(());
                }
                if !self.ty(v).is_float() {
                    return Err(self.err(loc, "integer store", "only f32/f64 data is stored"));
                }
                let fmt = self.fmt_of(v, loc)?;
                let at = self.pointer(p, loc)?;
                let src = self.float(v, loc)?;
                body.push(Node::Store { src, fmt, at });
            }
            OpKind::Call(Callee::Extern(name)) if is_fp_intrinsic(name) => {
                self.fp_call(op, body)?
            }
            OpKind::For { unsigned: _ } => self.for_loop(op, body)?,
            OpKind::While => self.while_loop(op, body)?,
            OpKind::If => self.if_constant(op, body)?,
            OpKind::Parallel { .. } => self.parallel(op, body)?,
            OpKind::Yield => {}
            OpKind::Return => {
                if !data.operands.is_empty() {
                    return Err(self.err(loc, "return value", "a kernel returns nothing"));
                }
            }
            other => {
                let (construct, why) = rejection(other);
                return Err(self.err(loc, &construct, why));
            }
        }
        Ok(())
    }

    fn float_binary(&mut self, op: Op, b: BinOp, body: &mut Vec<Node>) -> Result<(), Diagnostic> {
        let data = &self.func.ops[op];
        let loc = data.loc;
        let Some(r) = data.results.first().copied() else {
            return Err(self.err(loc, b.name(), "malformed op"));
        };
        let (x, y) = (data.lhs(), data.rhs());
        let fmt = self.fmt_of(r, loc)?;
        // A product used only by one addition is contracted into a fused
        // multiply-add, as nvcc does by default (`--fmad=true`).
        if b == BinOp::FMul {
            if let Some([user]) = self.users.get(&r).map(Vec::as_slice) {
                if matches!(self.func.ops[*user].kind, OpKind::Binary(BinOp::FAdd, _)) {
                    self.fused.insert(r, (x, y));
                    return Ok(());
                }
            }
        }
        let dst = self.out.new_f();
        let (fop, srcs) = match b {
            BinOp::FAdd => {
                let pick = |s: &Self, v: &Value| s.fused.get(v).copied();
                if let Some((m1, m2)) = pick(self, &x) {
                    let c = self.addend(y, fmt, loc, body)?;
                    (
                        FOp::Madd,
                        vec![self.float(m1, loc)?, self.float(m2, loc)?, c],
                    )
                } else if let Some((m1, m2)) = pick(self, &y) {
                    let c = self.addend(x, fmt, loc, body)?;
                    (
                        FOp::Madd,
                        vec![self.float(m1, loc)?, self.float(m2, loc)?, c],
                    )
                } else {
                    (FOp::Add, vec![self.float(x, loc)?, self.float(y, loc)?])
                }
            }
            BinOp::FSub => (FOp::Sub, vec![self.float(x, loc)?, self.float(y, loc)?]),
            BinOp::FMul => (FOp::Mul, vec![self.float(x, loc)?, self.float(y, loc)?]),
            BinOp::FDiv => (FOp::Div, vec![self.float(x, loc)?, self.float(y, loc)?]),
            BinOp::FMax => (FOp::Max, vec![self.float(x, loc)?, self.float(y, loc)?]),
            BinOp::FMin => (FOp::Min, vec![self.float(x, loc)?, self.float(y, loc)?]),
            other => {
                return Err(self.err(loc, other.name(), "no Snitch instruction computes it"));
            }
        };
        body.push(Node::Arith {
            op: fop,
            fmt,
            dst: F::V(dst),
            srcs,
        });
        self.floats.insert(r, dst);
        Ok(())
    }

    /// A call of C's `fma`/`fmaf`: `fmadd`, one rounding, as the C
    /// function (PTX's `fma.rn` arrives as such a call; `fmax`/`fmin` are
    /// IR ops of their own).
    fn fp_call(&mut self, op: Op, body: &mut Vec<Node>) -> Result<(), Diagnostic> {
        let data = &self.func.ops[op];
        let loc = data.loc;
        let OpKind::Call(Callee::Extern(name)) = &data.kind else {
            return Err(self.err(loc, "call", "malformed op"));
        };
        let Some(r) = data.results.first().copied() else {
            return Err(self.err(loc, name, "malformed op"));
        };
        let fmt = self.fmt_of(r, loc)?;
        let fits = matches!((name.as_str(), fmt), ("fma", Fmt::D) | ("fmaf", Fmt::S));
        if !fits || data.operands.len() != 3 {
            return Err(self.err(loc, name, "a call the Snitch compiler does not take"));
        }
        let operands = data.operands.clone();
        let mut srcs = Vec::new();
        for v in operands {
            srcs.push(self.float(v, loc)?);
        }
        let dst = self.out.new_f();
        body.push(Node::Arith {
            op: FOp::Madd,
            fmt,
            dst: F::V(dst),
            srcs,
        });
        self.floats.insert(r, dst);
        Ok(())
    }

    /// The addend of a contracted multiply-add. When it is a product held
    /// back for contraction too (`a * b + c * d`), that product is computed
    /// here: only one side can be fused.
    fn addend(
        &mut self,
        v: Value,
        fmt: Fmt,
        loc: Loc,
        body: &mut Vec<Node>,
    ) -> Result<F, Diagnostic> {
        if let (Some(&(a, b)), false) = (self.fused.get(&v), self.floats.contains_key(&v)) {
            let srcs = vec![self.float(a, loc)?, self.float(b, loc)?];
            let dst = self.out.new_f();
            body.push(Node::Arith {
                op: FOp::Mul,
                fmt,
                dst: F::V(dst),
                srcs,
            });
            self.floats.insert(v, dst);
        }
        self.float(v, loc)
    }

    /// An `if` whose condition is known at compile time (cpuify's
    /// versioning checks on launch dimensions, once those are constants)
    /// runs the chosen arm in place; any other `if` is rejected.
    fn if_constant(&mut self, op: Op, body: &mut Vec<Node>) -> Result<(), Diagnostic> {
        let data = &self.func.ops[op];
        let loc = data.loc;
        let c = data.cond();
        let results = data.results.clone();
        let Some(taken) = self.condition(c) else {
            self.undecided = true;
            self.split_hint = self.split_point(c);
            let (construct, why) = rejection(&OpKind::If);
            return Err(self.err(loc, &construct, why));
        };
        let region = data.branch(taken);
        for &inner in &self.func.regions[region].ops {
            self.op(inner, body)?;
        }
        if let Some(&last) = self.func.regions[region].ops.last() {
            let yielded = self.func.ops[last].operands.clone();
            for (&r, &y) in results.iter().zip(&yielded) {
                if self.ty(r).is_float() {
                    let f = self.float(y, loc)?;
                    if let F::V(v) = f {
                        self.floats.insert(r, v);
                    }
                } else if self.ty(r).is_int() {
                    let a = self.affine(y, loc)?;
                    self.ints.insert(r, a);
                } else {
                    return Err(self.err(loc, "if", "only FP and integer values can leave an if"));
                }
            }
        }
        Ok(())
    }

    fn for_loop(&mut self, op: Op, body: &mut Vec<Node>) -> Result<(), Diagnostic> {
        let data = &self.func.ops[op];
        let loc = data.loc;
        let (lb, ub, step) = data.bounds();
        let inits = data.inits();
        let region = data.body();
        let results = data.results.clone();
        let lb_a = self.affine(lb, loc)?;
        let ub_a = self.affine(ub, loc)?;
        let step_a = self.affine(step, loc)?;
        let (Some(lb_c), Some(step_c)) = (lb_a.as_constant(), step_a.as_constant()) else {
            return Err(self.err(
                loc,
                "loop with a variable start or step",
                "streams and FREP need counted loops",
            ));
        };
        if step_c <= 0 {
            return Err(self.err(loc, "loop step", "the step must be a positive constant"));
        }
        let count = match ub_a.as_constant() {
            Some(ub_c) => {
                let n = if ub_c <= lb_c {
                    0
                } else {
                    (ub_c - lb_c + step_c - 1) / step_c
                };
                let n = u32::try_from(n)
                    .map_err(|_| self.err(loc, "loop bound", "more than 2^32 iterations"))?;
                Count::Static(n)
            }
            None => match ub_a.terms.as_slice() {
                [(Var::Param(p), 1)] if ub_a.constant == 0 && lb_c == 0 && step_c == 1 => {
                    Count::Param(*p)
                }
                _ => {
                    return Err(self.err(
                        loc,
                        "loop bound",
                        "an upper bound must be a constant or an integer parameter (with start 0, step 1)",
                    ))
                }
            },
        };
        let id = self.out.new_loop();
        if let Count::Static(n) = count {
            self.counts.insert(id, n);
        }
        let args = self.func.regions[region].args.clone();
        let Some((&iv, carried)) = args.split_first() else {
            return Err(self.err(loc, "for", "malformed op"));
        };
        self.ints.insert(
            iv,
            Affine {
                constant: lb_c,
                terms: vec![(Var::Loop(id), step_c)],
            },
        );
        // Loop-carried FP values live in one register updated in place;
        // integers must be induction variables (`x = x + invariant`).
        let yielded = match self.func.regions[region].ops.last() {
            Some(&last) => self.func.ops[last].operands.clone(),
            None => Vec::new(),
        };
        let mut regs = Vec::new();
        for (k, (&init, &arg)) in inits.iter().zip(carried).enumerate() {
            if !self.ty(arg).is_float() {
                let result = results.get(k).copied();
                self.induction(
                    id,
                    region,
                    count,
                    init,
                    arg,
                    yielded.get(k).copied(),
                    result,
                    loc,
                )?;
                regs.push(None);
                continue;
            }
            let fmt = self.fmt_of(arg, loc)?;
            let src = self.float(init, loc)?;
            let dst = self.out.new_f();
            body.push(Node::Arith {
                op: FOp::Mov,
                fmt,
                dst: F::V(dst),
                srcs: vec![src],
            });
            self.floats.insert(arg, dst);
            regs.push(Some((dst, fmt)));
        }
        let mut inner = self.region(region)?;
        if let Some(&last) = self.func.regions[region].ops.last() {
            let yielded = self.func.ops[last].operands.clone();
            for (&y, reg) in yielded.iter().zip(&regs) {
                let Some((dst, fmt)) = *reg else { continue };
                let src = self.float(y, loc)?;
                inner.push(Node::Arith {
                    op: FOp::Mov,
                    fmt,
                    dst: F::V(dst),
                    srcs: vec![src],
                });
            }
        }
        for (&r, reg) in results.iter().zip(&regs) {
            if let Some((dst, _)) = *reg {
                self.floats.insert(r, dst);
            }
        }
        body.push(Node::Loop(Loop {
            id,
            count,
            body: inner,
            frep: false,
            ctl: None,
        }));
        Ok(())
    }

    /// An integer carried around loop `id`: `arg` starts as `init` and
    /// the body yields `arg ± step` with `step` invariant, so it is
    /// `init + step · iteration` (an address when `init` is one: nvcc
    /// strength-reduces indexing into pointer increments); the loop's
    /// `result` is its value after `count` iterations.
    #[allow(clippy::too_many_arguments)]
    fn induction(
        &mut self,
        id: u32,
        region: Region,
        count: Count,
        init: Value,
        arg: Value,
        next: Option<Value>,
        result: Option<Value>,
        loc: Loc,
    ) -> Result<(), Diagnostic> {
        let reject = |s: &Self| {
            s.err(
                loc,
                "integer loop-carried value",
                "only FP values and integers stepped by an invariant amount can be carried around a loop",
            )
        };
        let Some(next) = next else {
            return Err(reject(self));
        };
        // The step: `next` with `arg` a symbol, less the symbol (nvcc adds
        // the stride in several steps). What was computed with the symbol
        // is forgotten afterwards.
        let sym = Affine::var(Var::Param(usize::MAX));
        let is_address = self.addresses.contains_key(&init);
        let delta = if is_address {
            let buf = self.addresses[&init];
            self.carried_addresses.insert(
                arg,
                Access {
                    buf,
                    offset: sym.clone(),
                },
            );
            let next = self.address(next, loc);
            self.carried_addresses.remove(&arg);
            next.map(|a| a.offset)
        } else {
            self.ints.insert(arg, sym.clone());
            let next = self.affine(next, loc);
            self.ints.remove(&arg);
            next
        };
        self.forget(region);
        let step = delta?
            .add_scaled(&sym, -1)
            .filter(|d| d.coeff(Var::Param(usize::MAX)) == 0 && !d.uses_loop(id))
            .ok_or_else(|| reject(self))?;
        let iteration = Affine::var(Var::Loop(id));
        let after = match count {
            Count::Static(n) => Some(Affine::constant(i64::from(n))),
            Count::Param(_) => None,
        };
        let at = |base: &Affine, k: &Affine| -> Option<Affine> {
            base.add_scaled(&product(&step, k)?, 1)
        };
        if self.addresses.contains_key(&init) {
            let base = self.address(init, loc)?;
            let offset = at(&base.offset, &iteration).ok_or_else(|| reject(self))?;
            self.carried_addresses.insert(
                arg,
                Access {
                    buf: base.buf,
                    offset,
                },
            );
            if let (Some(r), Some(n)) = (result, after) {
                let offset = at(&base.offset, &n).ok_or_else(|| reject(self))?;
                self.carried_addresses.insert(
                    r,
                    Access {
                        buf: base.buf,
                        offset,
                    },
                );
            }
        } else {
            let base = self.affine(init, loc)?;
            let value = at(&base, &iteration).ok_or_else(|| reject(self))?;
            self.ints.insert(arg, value);
            if let (Some(r), Some(n)) = (result, after) {
                let value = at(&base, &n).ok_or_else(|| reject(self))?;
                self.ints.insert(r, value);
            }
        }
        Ok(())
    }

    fn parallel(&mut self, op: Op, body: &mut Vec<Node>) -> Result<(), Diagnostic> {
        let data = &self.func.ops[op];
        let loc = data.loc;
        let grid = matches!(data.kind, OpKind::Parallel { level: Level::Grid });
        let region = data.body();
        let ubs = data.operands.clone();
        let args = self.func.regions[region].args.clone();
        let mut counts = Vec::new();
        for &ub in &ubs {
            let a = self.affine(ub, loc)?;
            let count =
                match (a.as_constant(), a.terms.as_slice()) {
                    (Some(c), _) => Count::Static(u32::try_from(c.max(0)).map_err(|_| {
                        self.err(loc, "parallel bound", "more than 2^32 iterations")
                    })?),
                    (None, [(Var::Param(p), 1)]) if a.constant == 0 => Count::Param(*p),
                    _ => {
                        return Err(self.err(
                            loc,
                            "parallel bound",
                            "a bound must be a constant or a parameter",
                        ))
                    }
                };
            counts.push(count);
        }
        // Each iteration variable is `offset + stride · loop`: the identity,
        // except along the dimension a core's share of the grid is taken.
        let mut maps = vec![(0i64, 1i64); counts.len()];
        if let (true, Some(share)) = (grid, self.share) {
            let mut statics = [1u32; 3];
            for (d, c) in counts.iter().enumerate().take(3) {
                match c {
                    Count::Static(n) => statics[d] = *n,
                    Count::Param(_) => {
                        return Err(self.err(
                            loc,
                            "grid share",
                            "a core's share of the grid needs the launch shape",
                        ))
                    }
                }
            }
            let d = super::split_dimension(statics);
            if d < counts.len() {
                counts[d] = Count::Static(share.blocks(statics[d]));
                maps[d] = (i64::from(share.core), i64::from(share.cores));
            }
        }
        let mut ids = Vec::new();
        for ((&iv, &count), &(offset, stride)) in args.iter().zip(&counts).zip(&maps) {
            let id = self.out.new_loop();
            if let Count::Static(n) = count {
                self.counts.insert(id, n);
            }
            self.ints.insert(iv, iteration(id, count, offset, stride));
            ids.push((id, count));
        }
        self.undecided = false;
        self.split_hint = None;
        match self.region(region) {
            Ok(inner) => {
                body.extend(nest(inner, &ids));
                Ok(())
            }
            Err(e) if self.undecided => {
                if let Some(parts) = self.split_at_hint(region, &args, &ids, &maps, 0)? {
                    body.extend(parts);
                    return Ok(());
                }
                self.peel_last(region, &args, &ids, &maps, body, e)
            }
            Err(e) => Err(e),
        }
    }

    /// Lowers a `parallel` whose body has an `if` on one of its iteration
    /// variables that holds below a point and fails from it on (a tree
    /// reduction's `if (tid < s)` with `s` known) as two parts, split at
    /// that point, each lowered again (and split again if another such
    /// `if` remains). `None` when the hint is not about these loops.
    fn split_at_hint(
        &mut self,
        region: Region,
        args: &[Value],
        dims: &[(u32, Count)],
        maps: &[(i64, i64)],
        depth: u32,
    ) -> Result<Option<Vec<Node>>, Diagnostic> {
        let Some((l, k)) = self.split_hint else {
            return Ok(None);
        };
        let Some(d) = dims.iter().position(|&(id, _)| id == l) else {
            return Ok(None);
        };
        let Count::Static(n) = dims[d].1 else {
            return Ok(None);
        };
        if k == 0 || k >= n || depth >= 16 {
            return Ok(None);
        }
        self.split_hint = None;
        let mut out = Vec::new();
        for (lo, count) in [(0, k), (k, n - k)] {
            let mut part = Vec::new();
            let mut part_maps = maps.to_vec();
            part_maps[d].0 = maps[d].0 + maps[d].1 * i64::from(lo);
            self.forget(region);
            for (j, &(_, c)) in dims.iter().enumerate() {
                let c = if j == d { Count::Static(count) } else { c };
                let id = self.out.new_loop();
                if let Count::Static(m) = c {
                    self.counts.insert(id, m);
                }
                self.ints
                    .insert(args[j], iteration(id, c, part_maps[j].0, part_maps[j].1));
                part.push((id, c));
            }
            self.undecided = false;
            self.split_hint = None;
            match self.region(region) {
                Ok(inner) => out.extend(nest(inner, &part)),
                Err(e) if self.undecided => {
                    match self.split_at_hint(region, args, &part, &part_maps, depth + 1)? {
                        Some(nodes) => out.extend(nodes),
                        None => return Err(e),
                    }
                }
                Err(e) => return Err(e),
            }
        }
        Ok(Some(out))
    }

    /// Lowers a `parallel` whose body made a choice that depends on which
    /// iteration runs (cpuify's bound clamped by a guard: full blocks, then
    /// a partial last one) as two parts: every iteration of the first
    /// dimension with a constant count but the last, then that last one
    /// with its index a constant. Both must be decided.
    fn peel_last(
        &mut self,
        region: Region,
        args: &[Value],
        counts: &[(u32, Count)],
        maps: &[(i64, i64)],
        body: &mut Vec<Node>,
        first_error: Diagnostic,
    ) -> Result<(), Diagnostic> {
        let Some(d) = counts
            .iter()
            .position(|&(_, c)| matches!(c, Count::Static(n) if n >= 2))
        else {
            return Err(first_error);
        };
        let Count::Static(n) = counts[d].1 else {
            return Err(first_error);
        };
        // All but the last iteration.
        let mut head = counts.to_vec();
        let id = self.out.new_loop();
        head[d] = (id, Count::Static(n - 1));
        self.counts.insert(id, n - 1);
        self.forget(region);
        self.ints.insert(
            args[d],
            iteration(id, Count::Static(n - 1), maps[d].0, maps[d].1),
        );
        let inner = self.region(region)?;
        body.extend(nest(inner, &head));
        // The last iteration.
        let mut tail: Vec<(u32, Count)> = Vec::new();
        for (k, &(_, c)) in counts.iter().enumerate() {
            if k == d {
                continue;
            }
            let id = self.out.new_loop();
            if let Count::Static(m) = c {
                self.counts.insert(id, m);
            }
            self.ints
                .insert(args[k], iteration(id, c, maps[k].0, maps[k].1));
            tail.push((id, c));
        }
        self.forget(region);
        self.ints.insert(
            args[d],
            Affine::constant(maps[d].0 + maps[d].1 * i64::from(n - 1)),
        );
        let inner = self.region(region)?;
        body.extend(nest(inner, &tail));
        Ok(())
    }

    /// Drops what was computed for the values defined inside `region`, so
    /// it can be lowered again under other assumptions.
    fn forget(&mut self, region: Region) {
        for &op in &self.func.regions[region].ops {
            let data = &self.func.ops[op];
            for r in &data.results {
                self.ints.remove(r);
                self.ptrs.remove(r);
                self.floats.remove(r);
                self.fused.remove(r);
            }
            for &inner in &data.regions {
                for a in &self.func.regions[inner].args {
                    self.ints.remove(a);
                    self.floats.remove(a);
                }
                self.forget(inner);
            }
        }
    }
}

/// Every op of the function's body using each value (the arena may hold
/// ops that passes removed from it).
pub(crate) fn users_of(func: &Function) -> HashMap<Value, Vec<Op>> {
    let mut users: HashMap<Value, Vec<Op>> = HashMap::new();
    for (_, op) in func.walk() {
        for &v in &func.ops[op].operands {
            users.entry(v).or_default().push(op);
        }
    }
    users
}

/// If integer `a` is a buffer's address (PTX passes pointers as `u64`
/// parameters: `ld.param.u64`, `cvta.to.global`, `add.s64`, then an
/// access), the integers derived from it: it is used, and only as the base
/// of sums and differences that end in `inttoptr`.
pub(crate) fn address_values(
    func: &Function,
    users: &HashMap<Value, Vec<Op>>,
    a: Value,
) -> Option<Vec<Value>> {
    let mut derived = vec![a];
    let mut i = 0;
    let mut accessed = false;
    while let Some(&v) = derived.get(i) {
        i += 1;
        if derived[..i - 1].contains(&v) {
            continue;
        }
        for &user in users.get(&v).map(Vec::as_slice).unwrap_or(&[]) {
            let data = &func.ops[user];
            match data.kind {
                OpKind::Cast(CastOp::IntToPtr) => accessed = true,
                // Carried around a loop: the loop's argument and result.
                OpKind::For { .. } if !data.controls().contains(&v) => {
                    for (k, _) in data.inits().iter().enumerate().filter(|(_, &i)| i == v) {
                        let region = data.body();
                        derived.extend(func.regions[region].args.get(k + 1).copied());
                        derived.extend(data.results.get(k).copied());
                    }
                }
                OpKind::Yield => {}
                OpKind::Binary(BinOp::Add, _) if (data.lhs() == v) != (data.rhs() == v) => {
                    derived.extend(data.results.first().copied())
                }
                OpKind::Binary(BinOp::Sub, _) if data.lhs() == v && data.rhs() != v => {
                    derived.extend(data.results.first().copied())
                }
                _ => return None,
            }
        }
    }
    accessed.then_some(derived)
}

/// The C math functions [`Lowerer::fp_call`] takes.
fn is_fp_intrinsic(name: &str) -> bool {
    matches!(name, "fma" | "fmaf")
}

/// Iteration `offset + stride · l` of loop `l` (of `count` iterations):
/// the constant `offset` when the loop runs once, so that what depends on
/// it is decided (a core's single block of a grid share, say).
fn iteration(l: u32, count: Count, offset: i64, stride: i64) -> Affine {
    if count == Count::Static(1) {
        return Affine::constant(offset);
    }
    Affine {
        constant: offset,
        terms: vec![(Var::Loop(l), stride)],
    }
}

/// Wraps `inner` in loops, the first of `counts` innermost (x varies
/// fastest).
fn nest(mut inner: Vec<Node>, counts: &[(u32, Count)]) -> Vec<Node> {
    for &(id, count) in counts {
        inner = vec![Node::Loop(Loop {
            id,
            count,
            body: inner,
            frep: false,
            ctl: None,
        })];
    }
    inner
}
