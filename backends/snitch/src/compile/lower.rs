//! From cucc IR to the lowering IR, checking that the kernel fits.
//!
//! What fits: counted loops (`for` with constant lower bound and step, and
//! an upper bound that is a constant or, for unit loops from 0, an integer
//! parameter; `parallel` loops, run one iteration after another), whose
//! bodies load and store f32/f64 data through pointer parameters at offsets
//! affine in the loop variables and integer parameters, and compute with
//! FP arithmetic. Everything else is rejected with the construct and its
//! source location: that is what SSR streams and FREP can express, and a
//! silent fallback would hide why a kernel cannot run on the device.

use super::lir::{Access, Affine, Count, FOp, Fmt, Func, Loop, Node, ParamKind, Var, F, FV};
use super::Diagnostic;
use cucc_ir::{
    BinOp, CastOp, Dim, FloatKind, Function, Loc, Module, Op, OpKind, Region, Type, UnOp, Value,
    ValueDef,
};
use std::collections::HashMap;

/// Lowers `func` of `module`.
pub fn lower(
    module: &Module,
    func: &Function,
    launch: Option<super::LaunchDims>,
) -> Result<Func, Diagnostic> {
    let mut users: HashMap<Value, Vec<Op>> = HashMap::new();
    for (op, data) in func.ops.iter() {
        for &v in &data.operands {
            users.entry(v).or_default().push(op);
        }
    }
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
        },
        param_index: HashMap::new(),
        ints: HashMap::new(),
        ptrs: HashMap::new(),
        floats: HashMap::new(),
        fused: HashMap::new(),
        prologue: Vec::new(),
        launch,
        counts: HashMap::new(),
    };
    l.params()?;
    let body = l.region(func.body)?;
    let mut out = l.out;
    let mut all = l.prologue;
    all.extend(body);
    out.body = all;
    Ok(out)
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
    /// Constant loop counts, by loop number.
    counts: HashMap<u32, u32>,
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
                            "only pointers and integers can be passed to the device",
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
                Type::Int(_) => {
                    self.ints.insert(a, Affine::var(Var::Param(i)));
                    ParamKind::Int
                }
                _ => {
                    return Err(self.err(
                        self.func.loc,
                        "float parameter",
                        "only pointers and integers can be passed to the device",
                    ))
                }
            };
            self.out.params.push(kind);
        }
        Ok(())
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
            OpKind::Cast(CastOp::SExt | CastOp::ZExt | CastOp::Trunc) => {}
            OpKind::PtrIndex { .. } | OpKind::GridDim(_) | OpKind::BlockDim(_) => {}
            // Integer comparisons are evaluated when an `if` needs them.
            OpKind::Cmp(p) if !p.is_float() => {}
            OpKind::Binary(b, _) => self.float_binary(op, *b, body)?,
            OpKind::Unary(UnOp::FNeg) => {
                let (Some(r), [a]) = (result, data.operands.as_slice()) else {
                    return Err(self.err(loc, "fneg", "malformed op"));
                };
                let fmt = self.fmt_of(r, loc)?;
                let a = self.float(*a, loc)?;
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
                let (Some(r), [p]) = (result, data.operands.as_slice()) else {
                    return Err(self.err(loc, "load", "malformed op"));
                };
                if *volatile {
                    return Err(self.err(loc, "volatile load", "streams reorder memory accesses"));
                }
                if !self.ty(r).is_float() {
                    return Err(self.err(
                        loc,
                        "integer load",
                        "values read from memory cannot index or bound loops (data-dependent indexing is not affine); only f32/f64 data is loaded",
                    ));
                }
                let fmt = self.fmt_of(r, loc)?;
                let at = self.pointer(*p, loc)?;
                let dst = self.out.new_f();
                body.push(Node::Load { dst, fmt, at });
                self.floats.insert(r, dst);
            }
            OpKind::Store { volatile } => {
                let [p, v] = data.operands.as_slice() else {
                    return Err(self.err(loc, "store", "malformed op"));
                };
                if *volatile {
                    return Err(self.err(loc, "volatile store", "streams reorder memory accesses"));
                }
                if !self.ty(*v).is_float() {
                    return Err(self.err(loc, "integer store", "only f32/f64 data is stored"));
                }
                let fmt = self.fmt_of(*v, loc)?;
                let at = self.pointer(*p, loc)?;
                let src = self.float(*v, loc)?;
                body.push(Node::Store { src, fmt, at });
            }
            OpKind::For { unsigned: _ } => self.for_loop(op, body)?,
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
        let (Some(r), [x, y]) = (data.results.first().copied(), data.operands.as_slice()) else {
            return Err(self.err(loc, b.name(), "malformed op"));
        };
        let fmt = self.fmt_of(r, loc)?;
        // A product used only by one addition is contracted into a fused
        // multiply-add, as nvcc does by default (`--fmad=true`).
        if b == BinOp::FMul {
            if let Some([user]) = self.users.get(&r).map(Vec::as_slice) {
                if matches!(self.func.ops[*user].kind, OpKind::Binary(BinOp::FAdd, _)) {
                    self.fused.insert(r, (*x, *y));
                    return Ok(());
                }
            }
        }
        let dst = self.out.new_f();
        let (fop, srcs) = match b {
            BinOp::FAdd => {
                let pick = |s: &Self, v: &Value| s.fused.get(v).copied();
                if let Some((m1, m2)) = pick(self, x) {
                    let c = self.float(*y, loc)?;
                    (
                        FOp::Madd,
                        vec![self.float(m1, loc)?, self.float(m2, loc)?, c],
                    )
                } else if let Some((m1, m2)) = pick(self, y) {
                    let c = self.float(*x, loc)?;
                    (
                        FOp::Madd,
                        vec![self.float(m1, loc)?, self.float(m2, loc)?, c],
                    )
                } else {
                    (FOp::Add, vec![self.float(*x, loc)?, self.float(*y, loc)?])
                }
            }
            BinOp::FSub => (FOp::Sub, vec![self.float(*x, loc)?, self.float(*y, loc)?]),
            BinOp::FMul => (FOp::Mul, vec![self.float(*x, loc)?, self.float(*y, loc)?]),
            BinOp::FDiv => (FOp::Div, vec![self.float(*x, loc)?, self.float(*y, loc)?]),
            BinOp::FMax => (FOp::Max, vec![self.float(*x, loc)?, self.float(*y, loc)?]),
            BinOp::FMin => (FOp::Min, vec![self.float(*x, loc)?, self.float(*y, loc)?]),
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

    /// An `if` whose condition is known at compile time (cpuify's
    /// versioning checks on launch dimensions, once those are constants)
    /// runs the chosen arm in place; any other `if` is rejected.
    fn if_constant(&mut self, op: Op, body: &mut Vec<Node>) -> Result<(), Diagnostic> {
        let data = &self.func.ops[op];
        let loc = data.loc;
        let (Some(&c), [then, els]) = (data.operands.first(), data.regions.as_slice()) else {
            return Err(self.err(loc, "if", "malformed op"));
        };
        let results = data.results.clone();
        let Some(taken) = self.condition(c) else {
            let (construct, why) = rejection(&OpKind::If);
            return Err(self.err(loc, &construct, why));
        };
        let region = if taken { *then } else { *els };
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

    /// The value of an `i1` computed from constants, if it is one.
    fn condition(&mut self, v: Value) -> Option<bool> {
        let ValueDef::Result { op, .. } = self.func.values[v].def else {
            return None;
        };
        let data = &self.func.ops[op];
        let ops = data.operands.clone();
        match (&data.kind, ops.as_slice()) {
            (OpKind::Const { bits }, []) => Some(*bits & 1 == 1),
            (OpKind::Binary(BinOp::And, _), [a, b]) => {
                Some(self.condition(*a)? & self.condition(*b)?)
            }
            (OpKind::Binary(BinOp::Or, _), [a, b]) => {
                Some(self.condition(*a)? | self.condition(*b)?)
            }
            (OpKind::Binary(BinOp::Xor, _), [a, b]) => {
                Some(self.condition(*a)? ^ self.condition(*b)?)
            }
            (OpKind::Cmp(pred), [a, b]) if !pred.is_float() => {
                let loc = data.loc;
                let x = self.affine(*a, loc).ok()?;
                let y = self.affine(*b, loc).ok()?;
                let (xl, xh) = self.range(&x)?;
                let (yl, yh) = self.range(&y)?;
                use cucc_ir::CmpPred as P;
                let unsigned = matches!(pred, P::Ult | P::Ule | P::Ugt | P::Uge);
                if unsigned && (xl < 0 || yl < 0) {
                    return None;
                }
                // Decided when it holds, or fails, over the whole ranges.
                let decide = |always: bool, never: bool| match (always, never) {
                    (true, _) => Some(true),
                    (_, true) => Some(false),
                    _ => None,
                };
                match pred {
                    P::Eq => decide(xl == xh && yl == yh && xl == yl, xh < yl || yh < xl),
                    P::Ne => decide(xh < yl || yh < xl, xl == xh && yl == yh && xl == yl),
                    P::Slt | P::Ult => decide(xh < yl, xl >= yh),
                    P::Sle | P::Ule => decide(xh <= yl, xl > yh),
                    P::Sgt | P::Ugt => decide(xl > yh, xh <= yl),
                    P::Sge | P::Uge => decide(xl >= yh, xh < yl),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The least and greatest values of `a` over the loops' iterations
    /// (loops of constant count only; parameters are unknown).
    fn range(&self, a: &Affine) -> Option<(i64, i64)> {
        let (mut lo, mut hi) = (a.constant, a.constant);
        for &(v, c) in &a.terms {
            let Var::Loop(l) = v else { return None };
            let n = i64::from(*self.counts.get(&l)?);
            let span = c.checked_mul(n.checked_sub(1)?)?;
            if span < 0 {
                lo = lo.checked_add(span)?;
            } else {
                hi = hi.checked_add(span)?;
            }
        }
        Some((lo, hi))
    }

    fn for_loop(&mut self, op: Op, body: &mut Vec<Node>) -> Result<(), Diagnostic> {
        let data = &self.func.ops[op];
        let loc = data.loc;
        let [lb, ub, step, inits @ ..] = data.operands.as_slice() else {
            return Err(self.err(loc, "for", "malformed op"));
        };
        let region = data.regions[0];
        let results = data.results.clone();
        let lb_a = self.affine(*lb, loc)?;
        let ub_a = self.affine(*ub, loc)?;
        let step_a = self.affine(*step, loc)?;
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
        // Loop-carried FP values live in one register updated in place.
        let mut regs = Vec::new();
        for (&init, &arg) in inits.iter().zip(carried) {
            if !self.ty(arg).is_float() {
                return Err(self.err(
                    loc,
                    "integer loop-carried value",
                    "only FP values can be carried around a loop",
                ));
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
            regs.push((dst, fmt));
        }
        let mut inner = self.region(region)?;
        if let Some(&last) = self.func.regions[region].ops.last() {
            let yielded = self.func.ops[last].operands.clone();
            for (&y, &(dst, fmt)) in yielded.iter().zip(&regs) {
                let src = self.float(y, loc)?;
                inner.push(Node::Arith {
                    op: FOp::Mov,
                    fmt,
                    dst: F::V(dst),
                    srcs: vec![src],
                });
            }
        }
        for (&r, &(dst, _)) in results.iter().zip(&regs) {
            self.floats.insert(r, dst);
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

    fn parallel(&mut self, op: Op, body: &mut Vec<Node>) -> Result<(), Diagnostic> {
        let data = &self.func.ops[op];
        let loc = data.loc;
        let region = data.regions[0];
        let ubs = data.operands.clone();
        let args = self.func.regions[region].args.clone();
        let mut counts = Vec::new();
        for (&ub, &iv) in ubs.iter().zip(&args) {
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
            let id = self.out.new_loop();
            if let Count::Static(n) = count {
                self.counts.insert(id, n);
            }
            self.ints.insert(iv, Affine::var(Var::Loop(id)));
            counts.push((id, count));
        }
        let mut inner = self.region(region)?;
        // x varies fastest: it is the innermost loop.
        for (id, count) in counts {
            inner = vec![Node::Loop(Loop {
                id,
                count,
                body: inner,
                frep: false,
                ctl: None,
            })];
        }
        body.extend(inner);
        Ok(())
    }

    fn pointer(&mut self, v: Value, loc: Loc) -> Result<Access, Diagnostic> {
        if let Some(a) = self.ptrs.get(&v) {
            return Ok(a.clone());
        }
        let ValueDef::Result { op, .. } = self.func.values[v].def else {
            return Err(self.err(loc, "pointer", "not a kernel parameter"));
        };
        let data = &self.func.ops[op];
        let at = data.loc;
        let access = match (&data.kind, data.operands.as_slice()) {
            (OpKind::PtrIndex { elem }, [base, index]) => {
                let size = self.module.types.size_of(*elem) as i64;
                let base = self.pointer(*base, at)?;
                let index = self.affine(*index, at)?;
                let offset = base
                    .offset
                    .add_scaled(&index, size)
                    .ok_or_else(|| self.err(at, "address", "offset overflows"))?;
                Access {
                    buf: base.buf,
                    offset,
                }
            }
            (kind, _) => {
                let (construct, why) = rejection(kind);
                return Err(self.err(
                    at,
                    &construct,
                    format!("a pointer not derived from a kernel parameter ({why})"),
                ));
            }
        };
        self.ptrs.insert(v, access.clone());
        Ok(access)
    }

    /// The integer value `v` as an affine function of loop numbers and
    /// parameters.
    fn affine(&mut self, v: Value, loc: Loc) -> Result<Affine, Diagnostic> {
        if let Some(a) = self.ints.get(&v) {
            return Ok(a.clone());
        }
        let ValueDef::Result { op, .. } = self.func.values[v].def else {
            return Err(self.err(loc, "index", "a value defined outside the supported loops"));
        };
        let data = &self.func.ops[op];
        let at = data.loc;
        let non_affine = |s: &Self, what: &str| {
            s.err(
                at,
                what,
                "indices and bounds must be affine in loop variables and integer parameters",
            )
        };
        let ops = data.operands.clone();
        let a = match (&data.kind, ops.as_slice()) {
            (OpKind::Binary(BinOp::Add, _), [x, y]) => {
                let (x, y) = (self.affine(*x, at)?, self.affine(*y, at)?);
                x.add_scaled(&y, 1).ok_or_else(|| non_affine(self, "add"))?
            }
            (OpKind::Binary(BinOp::Sub, _), [x, y]) => {
                let (x, y) = (self.affine(*x, at)?, self.affine(*y, at)?);
                x.add_scaled(&y, -1)
                    .ok_or_else(|| non_affine(self, "sub"))?
            }
            (OpKind::Binary(BinOp::Mul, _), [x, y]) => {
                let (x, y) = (self.affine(*x, at)?, self.affine(*y, at)?);
                product(&x, &y).ok_or_else(|| non_affine(self, "mul of two variables"))?
            }
            (OpKind::Binary(BinOp::Shl, _), [x, y]) => {
                let (x, y) = (self.affine(*x, at)?, self.affine(*y, at)?);
                match y.as_constant() {
                    Some(s @ 0..=30) => x.scale(1 << s).ok_or_else(|| non_affine(self, "shl"))?,
                    _ => return Err(non_affine(self, "shl by a variable")),
                }
            }
            (OpKind::Cast(CastOp::SExt | CastOp::ZExt | CastOp::Trunc), [x]) => {
                self.affine(*x, at)?
            }
            (OpKind::GridDim(d), []) => match self.launch {
                Some(l) => Affine::constant(i64::from(l.grid[d.index()])),
                None => Affine::var(Var::Param(self.implicit(ParamKind::GridDim(dim(*d))))),
            },
            (OpKind::BlockDim(d), []) => match self.launch {
                Some(l) => Affine::constant(i64::from(l.block[d.index()])),
                None => Affine::var(Var::Param(self.implicit(ParamKind::BlockDim(dim(*d))))),
            },
            (OpKind::Load { .. }, _) => {
                return Err(self.err(
                    at,
                    "data-dependent indexing",
                    "an index or bound read from memory is not affine",
                ))
            }
            (OpKind::Binary(b, _), _) => return Err(non_affine(self, b.name())),
            (kind, _) => {
                let (construct, why) = rejection(kind);
                return Err(self.err(at, &construct, why));
            }
        };
        self.ints.insert(v, a.clone());
        Ok(a)
    }
}

fn dim(d: Dim) -> u8 {
    d.index() as u8
}

fn sign_extend(bits: u64, width: u8) -> i64 {
    if width >= 64 {
        return bits as i64;
    }
    let shift = 64 - u32::from(width);
    ((bits << shift) as i64) >> shift
}

/// `x · y` when one side is a constant or `k · parameter` and the other
/// has no parameter terms.
fn product(x: &Affine, y: &Affine) -> Option<Affine> {
    if let Some(c) = x.as_constant() {
        return y.scale(c);
    }
    if let Some(c) = y.as_constant() {
        return x.scale(c);
    }
    let single_param = |a: &Affine| match a.terms.as_slice() {
        [(Var::Param(p), k)] if a.constant == 0 => Some((*p, *k)),
        _ => None,
    };
    let (p, k, other) = match (single_param(x), single_param(y)) {
        (Some((p, k)), _) => (p, k, y),
        (_, Some((p, k))) => (p, k, x),
        _ => return None,
    };
    let mut out = Affine::default();
    let pk = Affine {
        constant: 0,
        terms: vec![(Var::Param(p), k)],
    };
    out = out.add_scaled(&pk, other.constant)?;
    for &(v, c) in &other.terms {
        let Var::Loop(l) = v else { return None };
        let t = Affine {
            constant: 0,
            terms: vec![(Var::LoopParam(l, p), k)],
        };
        out = out.add_scaled(&t, c)?;
    }
    Some(out)
}

/// The construct's name and why the device cannot run it.
fn rejection(kind: &OpKind) -> (String, String) {
    let name = kind.mnemonic().to_string();
    let why = match kind {
        OpKind::AtomicRmw { .. } | OpKind::AtomicCas { .. } => "atomics need a memory system the streams bypass; the device runs only pure loop nests",
        OpKind::Barrier(_) | OpKind::BarrierReduce(_) => "barriers must be removed by cpuify before the device can run the kernel",
        OpKind::Shuffle(_) | OpKind::Vote(_) | OpKind::ActiveMask | OpKind::LaneId => "warp functions exchange data between threads the device runs one after another",
        OpKind::Call(_) => "calls are not supported (inline them first)",
        OpKind::While => "while loops have no trip count; streams and FREP need counted loops",
        OpKind::If | OpKind::Select | OpKind::Cmp(_) => "conditional code is not supported; only straight-line loop bodies map to streams and FREP",
        OpKind::ThreadId(_) | OpKind::BlockId(_) => "the kernel is in per-thread form; compile it after cpuify's lower-launch",
        OpKind::Alloca { .. } | OpKind::DynamicShared | OpKind::GlobalAddr(_) => "only memory passed as pointer parameters is supported",
        OpKind::Memcpy | OpKind::Memset => "bulk memory operations are not supported",
        OpKind::TexFetch(_) | OpKind::TexRef(_) => "textures are not supported",
        OpKind::Fence { .. } => "fences are not supported",
        OpKind::Printf { .. } | OpKind::Trap { .. } | OpKind::Clock { .. } => "host interaction is not supported",
        OpKind::Cast(_) => "conversions are not supported",
        _ => "not supported by the Snitch compiler",
    };
    (name, why.to_string())
}
