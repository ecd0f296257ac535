//! Affine index analysis: integer values and addresses as affine functions
//! of thread coordinates and block-fixed values.
//!
//! An [`Affine`] is `constant + Σ coefficient · symbol`, where a symbol
//! ([`Sym`]) is a thread or block coordinate, the lane or warp number, an
//! opaque SSA value that is *fixed*: it has one value throughout the
//! execution of a block, in every thread and every loop iteration (see
//! [`AffineAnalysis::is_fixed`]), or the product of one of those with a
//! fixed value ([`Sym::Product`]: `(blockIdx.y * 16 + threadIdx.y) * cols`,
//! a row-major index whose row length is known only at run time). That is what lets barrier analysis compare
//! the addresses two threads use (the fixed terms cancel) and what makes the
//! thread-injectivity test of [`is_thread_injective`] meaningful.
//!
//! # Assumptions
//!
//! Integer arithmetic that feeds an index is assumed not to wrap, as in C,
//! where signed overflow is undefined: `add`, `sub`, `mul` and `shl` are read
//! as mathematical operations, `sext` and `trunc` as the identity, and `zext`
//! as the identity too, which assumes the extended value is non-negative
//! (CUDA code indexes with unsigned ids that never reach 2³¹). Constants are
//! read as signed numbers of their width (`i1` as 0 or 1).
//!
//! In a device function the parameters count as fixed (they are for one
//! call), but different threads may pass different arguments, so the
//! thread-injectivity of a device function's affine says nothing; the
//! barrier analysis does not use it there.

use crate::effects::Base;
use crate::func::{Function, FunctionKind, Op, Parents, Value, ValueDef};
use crate::intrinsics;
use crate::module::Module;
use crate::ops::{BinOp, Callee, CastOp, Dim, Level, OpKind};
use crate::types::{Space, Type};
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::fmt;

/// A symbol an [`Affine`] can depend on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sym {
    /// `threadIdx.d` (in launch form: the iv of a block-level parallel).
    Thread(Dim),
    /// `blockIdx.d` (in launch form: the iv of a grid-level parallel).
    Block(Dim),
    /// The lane within the warp (`lane_id`, or a lane-level parallel's iv).
    Lane,
    /// The warp within the block (a warp-level parallel's iv).
    Warp,
    /// A fixed SSA value (see [`AffineAnalysis::is_fixed`]): the same in
    /// every thread of a block and every loop iteration.
    Value(Value),
    /// `factor · value`, `value` fixed: a coefficient known only at run
    /// time. Made only where a thread-varying sum is multiplied by a fixed
    /// value; a product of fixed values stays one opaque [`Sym::Value`].
    Product(Factor, Value),
}

/// The first factor of a [`Sym::Product`]: any symbol but a product.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Factor {
    /// `threadIdx.d`.
    Thread(Dim),
    /// `blockIdx.d`.
    Block(Dim),
    /// The lane within the warp.
    Lane,
    /// The warp within the block.
    Warp,
    /// A fixed SSA value.
    Value(Value),
}

impl Factor {
    /// The factor of `s`, `None` for a product.
    pub fn of(s: Sym) -> Option<Factor> {
        Some(match s {
            Sym::Thread(d) => Factor::Thread(d),
            Sym::Block(d) => Factor::Block(d),
            Sym::Lane => Factor::Lane,
            Sym::Warp => Factor::Warp,
            Sym::Value(v) => Factor::Value(v),
            Sym::Product(..) => return None,
        })
    }

    /// The factor as a symbol of its own.
    pub fn sym(self) -> Sym {
        match self {
            Factor::Thread(d) => Sym::Thread(d),
            Factor::Block(d) => Sym::Block(d),
            Factor::Lane => Sym::Lane,
            Factor::Warp => Sym::Warp,
            Factor::Value(v) => Sym::Value(v),
        }
    }
}

impl Sym {
    /// True if the symbol differs between the threads of one block.
    pub fn varies_by_thread(self) -> bool {
        match self {
            Sym::Thread(_) | Sym::Lane | Sym::Warp => true,
            Sym::Product(f, _) => f.sym().varies_by_thread(),
            Sym::Block(_) | Sym::Value(_) => false,
        }
    }
}

impl fmt::Display for Sym {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sym::Thread(d) => write!(f, "t{}", d.name()),
            Sym::Block(d) => write!(f, "b{}", d.name()),
            Sym::Lane => f.write_str("lane"),
            Sym::Warp => f.write_str("warp"),
            Sym::Value(v) => write!(f, "%{}", v.index()),
            Sym::Product(a, v) => write!(f, "({}·%{})", a.sym(), v.index()),
        }
    }
}

/// `constant + Σ terms[s] · s`. Coefficients are never zero (a zero term is
/// removed), so two equal functions compare equal.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Affine {
    /// The constant part.
    pub constant: i64,
    /// Nonzero coefficients by symbol.
    pub terms: BTreeMap<Sym, i64>,
}

impl Affine {
    /// The constant `c`.
    pub fn constant(c: i64) -> Affine {
        Affine {
            constant: c,
            terms: BTreeMap::new(),
        }
    }

    /// The symbol `s` with coefficient 1.
    pub fn sym(s: Sym) -> Affine {
        Affine::term(s, 1)
    }

    /// `coeff · s`.
    pub fn term(s: Sym, coeff: i64) -> Affine {
        let mut a = Affine::constant(0);
        if coeff != 0 {
            a.terms.insert(s, coeff);
        }
        a
    }

    /// The value if the function is constant.
    pub fn as_constant(&self) -> Option<i64> {
        self.terms.is_empty().then_some(self.constant)
    }

    /// The coefficient of `s` (0 if absent).
    pub fn coeff(&self, s: Sym) -> i64 {
        self.terms.get(&s).copied().unwrap_or(0)
    }

    /// True if some term differs between threads of a block.
    pub fn varies_by_thread(&self) -> bool {
        self.terms.keys().any(|s| s.varies_by_thread())
    }

    /// `self + other`, or `None` on overflow.
    pub fn checked_add(&self, other: &Affine) -> Option<Affine> {
        let mut out = self.clone();
        out.constant = out.constant.checked_add(other.constant)?;
        for (&s, &c) in &other.terms {
            let sum = out.coeff(s).checked_add(c)?;
            if sum == 0 {
                out.terms.remove(&s);
            } else {
                out.terms.insert(s, sum);
            }
        }
        Some(out)
    }

    /// `self - other`, or `None` on overflow.
    pub fn checked_sub(&self, other: &Affine) -> Option<Affine> {
        self.checked_add(&other.checked_scale(-1)?)
    }

    /// `k · self`, or `None` on overflow.
    pub fn checked_scale(&self, k: i64) -> Option<Affine> {
        if k == 0 {
            return Some(Affine::constant(0));
        }
        let mut out = Affine::constant(self.constant.checked_mul(k)?);
        for (&s, &c) in &self.terms {
            out.terms.insert(s, c.checked_mul(k)?);
        }
        Some(out)
    }

    /// `self + k`, or `None` on overflow.
    pub fn checked_add_constant(&self, k: i64) -> Option<Affine> {
        let mut out = self.clone();
        out.constant = out.constant.checked_add(k)?;
        Some(out)
    }
}

impl fmt::Display for Affine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (s, c) in &self.terms {
            write!(f, "{c}*{s} + ")?;
        }
        write!(f, "{}", self.constant)
    }
}

/// Where a pointer value points: its base object and, when known, the byte
/// offset from the base's start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pointer {
    /// The object the pointer was derived from.
    pub base: Base,
    /// Byte offset from the start of `base` (`None` when not affine).
    pub offset: Option<Affine>,
}

impl Pointer {
    fn unknown() -> Pointer {
        Pointer {
            base: Base::Unknown,
            offset: None,
        }
    }
}

/// Operand chains deeper than this are answered conservatively, so
/// adversarial IR cannot exhaust the stack.
const MAX_DEPTH: u32 = 256;

/// Affine and base-pointer analysis of one function, with memoisation.
///
/// Build one per function and query it many times; the free functions
/// [`affine_of`] and [`address_of`] build a throwaway one.
pub struct AffineAnalysis<'a> {
    module: &'a Module,
    func: &'a Function,
    parents: Parents,
    /// With a scope, values defined outside that op count as fixed: the
    /// analysis then describes one execution of the scope.
    scope: Option<Op>,
    fixed: RefCell<HashMap<Value, bool>>,
    ints: RefCell<HashMap<Value, Option<Affine>>>,
    ptrs: RefCell<HashMap<Value, Pointer>>,
}

impl<'a> AffineAnalysis<'a> {
    /// Analysis of `func`, a function of `module` (or one being built with
    /// its types). The function must be verified: handles must be in range.
    pub fn new(module: &'a Module, func: &'a Function) -> Self {
        AffineAnalysis {
            module,
            func,
            parents: func.parents(),
            scope: None,
            fixed: RefCell::default(),
            ints: RefCell::default(),
            ptrs: RefCell::default(),
        }
    }

    /// Analysis of one execution of `scope` (an op of `func`): every value
    /// defined outside it is fixed, as it keeps one value while the op
    /// runs — a serial loop's counter, an `if` result or a load made
    /// before a thread loop nested in that loop. Answers about accesses
    /// inside `scope` compare them within that execution only.
    pub fn within(module: &'a Module, func: &'a Function, scope: Op) -> Self {
        AffineAnalysis {
            scope: Some(scope),
            ..AffineAnalysis::new(module, func)
        }
    }

    /// True if `v` is defined outside the scope of a scoped analysis.
    fn outside_scope(&self, v: Value) -> bool {
        let Some(scope) = self.scope else {
            return false;
        };
        let owner = match self.func.values[v].def {
            ValueDef::Arg { region, .. } => match self.parents.op_of(region) {
                Some(op) => op,
                None => return true,
            },
            ValueDef::Result { op, .. } => op,
        };
        if owner == scope {
            // The scope's own region arguments vary inside it; its
            // results are defined after it.
            return matches!(self.func.values[v].def, ValueDef::Result { .. });
        }
        !self.parents.ancestors(owner).contains(&scope)
    }

    /// The module.
    pub fn module(&self) -> &'a Module {
        self.module
    }

    /// The function analysed.
    pub fn func(&self) -> &'a Function {
        self.func
    }

    /// Parent links of the function, computed once.
    pub fn parents(&self) -> &Parents {
        &self.parents
    }

    /// True if `v` is *fixed*: one value throughout a block's execution of
    /// the function, in every thread and every loop iteration.
    ///
    /// Fixed are constants, parameters, block ids and the grid- and
    /// block-dimension reads, global and shared-memory addresses, grid-level
    /// parallel ivs, and pure ops (arithmetic, casts, address arithmetic,
    /// known pure extern calls) of fixed operands. Not fixed: thread and
    /// lane ids, block-, warp- and lane-level ivs, `for`/`while` region
    /// arguments and results, `if` results, loads, `undef`, and anything
    /// with side effects, even when it happens to be uniform.
    pub fn is_fixed(&self, v: Value) -> bool {
        self.fixed_at(v, 0)
    }

    fn fixed_at(&self, v: Value, depth: u32) -> bool {
        if let Some(&r) = self.fixed.borrow().get(&v) {
            return r;
        }
        if self.outside_scope(v) {
            self.fixed.borrow_mut().insert(v, true);
            return true;
        }
        if depth > MAX_DEPTH {
            return false;
        }
        let f = self.func;
        let r = match f.values[v].def {
            ValueDef::Arg { region, .. } => {
                region == f.body
                    || matches!(
                        self.parents.op_of(region).map(|op| &f.ops[op].kind),
                        Some(OpKind::Parallel { level: Level::Grid })
                    )
            }
            ValueDef::Result { op, .. } => {
                let data = &f.ops[op];
                let operands_fixed = || data.operands.iter().all(|&o| self.fixed_at(o, depth + 1));
                match &data.kind {
                    OpKind::Const { .. }
                    | OpKind::GlobalAddr(_)
                    | OpKind::DynamicShared
                    | OpKind::TexRef(_)
                    | OpKind::BlockId(_)
                    | OpKind::BlockDim(_)
                    | OpKind::GridDim(_)
                    | OpKind::WarpSize => true,
                    OpKind::Binary(..)
                    | OpKind::Unary(_)
                    | OpKind::Cmp(_)
                    | OpKind::Cast(_)
                    | OpKind::Select
                    | OpKind::PtrIndex { .. }
                    | OpKind::PtrField { .. } => operands_fixed(),
                    OpKind::Call(Callee::Extern(name)) if intrinsics::lookup(name).is_some() => {
                        operands_fixed()
                    }
                    _ => false,
                }
            }
        };
        self.fixed.borrow_mut().insert(v, r);
        r
    }

    /// The affine form of the integer value `v`, or `None` if it is not an
    /// integer or depends on the thread in a non-affine way (or through
    /// values not known fixed, such as loop-carried ones and loads).
    ///
    /// Recognised: constants; `thread_id`, `block_id`, `lane_id`,
    /// `warp_size`; ivs of `parallel` ops (grid → [`Sym::Block`], block →
    /// [`Sym::Thread`] by position, warp → [`Sym::Warp`], lane →
    /// [`Sym::Lane`]); `add`, `sub`, `mul` by a constant, `mul` of a
    /// thread-varying sum by a fixed value (into [`Sym::Product`] terms),
    /// `shl` by a constant; `sext`, `zext`, `trunc` (see the module docs
    /// for the no-overflow assumption). Any other fixed value is an opaque
    /// [`Sym::Value`] term.
    pub fn affine_of(&self, v: Value) -> Option<Affine> {
        self.int_at(v, 0)
    }

    fn int_at(&self, v: Value, depth: u32) -> Option<Affine> {
        if let Some(r) = self.ints.borrow().get(&v) {
            return r.clone();
        }
        if depth > MAX_DEPTH {
            return None;
        }
        let bits = self.module.types[self.func.values[v].ty].int_bits()?;
        let r = self
            .decompose(v, bits, depth)
            .or_else(|| self.fixed_at(v, depth).then(|| Affine::sym(Sym::Value(v))));
        self.ints.borrow_mut().insert(v, r.clone());
        r
    }

    /// The affine form of `v` from its definition alone (no opaque fallback).
    fn decompose(&self, v: Value, bits: u8, depth: u32) -> Option<Affine> {
        let f = self.func;
        match f.values[v].def {
            ValueDef::Arg { region, index } => {
                let op = self.parents.op_of(region)?;
                let OpKind::Parallel { level } = f.ops[op].kind else {
                    return None;
                };
                let dim = *Dim::ALL.get(index as usize)?;
                Some(Affine::sym(match level {
                    Level::Grid => Sym::Block(dim),
                    Level::Block => Sym::Thread(dim),
                    Level::Warp => Sym::Warp,
                    Level::Lane => Sym::Lane,
                }))
            }
            ValueDef::Result { op, .. } => {
                let data = &f.ops[op];
                let arg = |i: usize| {
                    data.operands
                        .get(i)
                        .and_then(|&o| self.int_at(o, depth + 1))
                };
                match &data.kind {
                    OpKind::Const { bits: raw } => Some(Affine::constant(signed_const(*raw, bits))),
                    OpKind::ThreadId(d) => Some(Affine::sym(Sym::Thread(*d))),
                    OpKind::BlockId(d) => Some(Affine::sym(Sym::Block(*d))),
                    OpKind::LaneId => Some(Affine::sym(Sym::Lane)),
                    OpKind::WarpSize => Some(Affine::constant(32)),
                    OpKind::Binary(BinOp::Add, _) => arg(0)?.checked_add(&arg(1)?),
                    OpKind::Binary(BinOp::Sub, _) => arg(0)?.checked_sub(&arg(1)?),
                    OpKind::Binary(BinOp::Mul, _) => {
                        let (a, b) = (arg(0)?, arg(1)?);
                        match (a.as_constant(), b.as_constant()) {
                            (_, Some(k)) => a.checked_scale(k),
                            (Some(k), _) => b.checked_scale(k),
                            _ => times_fixed(&a, &b).or_else(|| times_fixed(&b, &a)),
                        }
                    }
                    OpKind::Binary(BinOp::Shl, _) => {
                        // Amounts of the width or more give 0 (docs/ir.md):
                        // not a scaling.
                        let k = arg(1)?.as_constant()?;
                        if !(0..63.min(i64::from(bits))).contains(&k) {
                            return None;
                        }
                        arg(0)?.checked_scale(1i64 << k)
                    }
                    OpKind::Cast(CastOp::SExt | CastOp::ZExt) => arg(0),
                    OpKind::Cast(CastOp::Trunc) => {
                        let a = arg(0)?;
                        match a.as_constant() {
                            // Fold exactly: the result is the low bits.
                            Some(c) => Some(Affine::constant(signed_const(c as u64, bits))),
                            None => Some(a),
                        }
                    }
                    _ => None,
                }
            }
        }
    }

    /// The base object and byte offset of the pointer value `v`.
    ///
    /// Follows `ptr.index` (adds `index · size_of(elem)`), `ptr.field`
    /// (adds the field offset), `spacecast`, and `select` between pointers
    /// of one base. Allocas, global addresses, dynamic shared memory and
    /// parameters are bases. Anything else (loaded pointers, call results,
    /// `inttoptr`, loop-carried pointers, `if` results) is
    /// [`Base::Unknown`] with no offset.
    pub fn pointer(&self, v: Value) -> Pointer {
        self.ptr_at(v, 0)
    }

    fn ptr_at(&self, v: Value, depth: u32) -> Pointer {
        if let Some(r) = self.ptrs.borrow().get(&v) {
            return r.clone();
        }
        if depth > MAX_DEPTH {
            return Pointer::unknown();
        }
        let r = self.trace(v, depth);
        self.ptrs.borrow_mut().insert(v, r.clone());
        r
    }

    /// PTX's pointers are integers: `inttoptr(%p + offset)` with `%p` a
    /// 64-bit parameter of the function is parameter `%p`'s object at that
    /// offset (an address the program computes from the pointer it was
    /// given, which CUDA keeps inside its allocation); the offset is `None`
    /// when it is not affine. A sum in which another 64-bit parameter is
    /// an additive term (`p + q - r`) is not a pointer.
    fn int_pointer(&self, x: Value, depth: u32) -> Option<(Base, Option<Affine>)> {
        if depth > MAX_DEPTH {
            return None;
        }
        let f = self.func;
        if let Some(index) = self.i64_param(x) {
            return Some((Base::Param(index), Some(Affine::constant(0))));
        }
        let ValueDef::Result { op, .. } = f.values[x].def else {
            return None;
        };
        let data = &f.ops[op];
        let [a, b] = data.operands[..] else {
            return None;
        };
        let from = |p: Value, o: Value, negate: bool| {
            let (base, off) = self.int_pointer(p, depth + 1)?;
            if self.additive_param(o, depth + 1) {
                return None;
            }
            let off = (|| {
                let o = self.int_at(o, depth + 1)?;
                if negate {
                    off?.checked_sub(&o)
                } else {
                    off?.checked_add(&o)
                }
            })();
            Some((base, off))
        };
        match data.kind {
            OpKind::Binary(BinOp::Add, _) => from(a, b, false).or_else(|| from(b, a, false)),
            OpKind::Binary(BinOp::Sub, _) => from(a, b, true),
            _ => None,
        }
    }

    /// The index of `v` if it is a 64-bit parameter of the function.
    fn i64_param(&self, v: Value) -> Option<u32> {
        let f = self.func;
        match f.values[v].def {
            ValueDef::Arg { region, index } if region == f.body => {
                (self.module.types[f.values[v].ty].int_bits() == Some(64)).then_some(index)
            }
            _ => None,
        }
    }

    /// True if a 64-bit parameter is an additive term of `v` (through
    /// `add` and `sub`).
    fn additive_param(&self, v: Value, depth: u32) -> bool {
        if self.i64_param(v).is_some() {
            return true;
        }
        if depth > MAX_DEPTH {
            return true;
        }
        let f = self.func;
        let ValueDef::Result { op, .. } = f.values[v].def else {
            return false;
        };
        let data = &f.ops[op];
        matches!(data.kind, OpKind::Binary(BinOp::Add | BinOp::Sub, _))
            && data
                .operands
                .iter()
                .any(|&o| self.additive_param(o, depth + 1))
    }

    fn trace(&self, v: Value, depth: u32) -> Pointer {
        let f = self.func;
        let at_base = |base| Pointer {
            base,
            offset: Some(Affine::constant(0)),
        };
        match f.values[v].def {
            ValueDef::Arg { region, index } if region == f.body => at_base(Base::Param(index)),
            ValueDef::Arg { .. } => Pointer::unknown(),
            ValueDef::Result { op, .. } => {
                let data = &f.ops[op];
                let types = &self.module.types;
                let operand = |i: usize| data.operands.get(i).copied();
                match &data.kind {
                    OpKind::Alloca { .. } => at_base(Base::Alloca(op)),
                    OpKind::GlobalAddr(g) => at_base(Base::Global(*g)),
                    OpKind::DynamicShared => at_base(Base::DynamicShared),
                    OpKind::Cast(CastOp::SpaceCast) => match operand(0) {
                        Some(p) => self.ptr_at(p, depth + 1),
                        None => Pointer::unknown(),
                    },
                    OpKind::Cast(CastOp::IntToPtr) => match operand(0) {
                        Some(x) => self.int_pointer(x, depth + 1).map_or_else(
                            Pointer::unknown,
                            |(base, offset)| Pointer { base, offset },
                        ),
                        None => Pointer::unknown(),
                    },
                    OpKind::PtrIndex { elem } => {
                        let (Some(p), Some(i)) = (operand(0), operand(1)) else {
                            return Pointer::unknown();
                        };
                        let mut out = self.ptr_at(p, depth + 1);
                        let scale = i64::try_from(types.size_of(*elem)).ok();
                        out.offset = (|| {
                            let step = self.int_at(i, depth + 1)?.checked_scale(scale?)?;
                            out.offset.as_ref()?.checked_add(&step)
                        })();
                        out
                    }
                    OpKind::PtrField { ty, field } => {
                        let Some(p) = operand(0) else {
                            return Pointer::unknown();
                        };
                        let mut out = self.ptr_at(p, depth + 1);
                        let field_offset = match &types[*ty] {
                            Type::Struct(s) => s
                                .fields
                                .get(*field as usize)
                                .and_then(|fl| i64::try_from(fl.offset).ok()),
                            _ => None,
                        };
                        out.offset =
                            (|| out.offset.as_ref()?.checked_add_constant(field_offset?))();
                        out
                    }
                    OpKind::Select => {
                        let (Some(a), Some(b)) = (operand(1), operand(2)) else {
                            return Pointer::unknown();
                        };
                        let (pa, pb) = (self.ptr_at(a, depth + 1), self.ptr_at(b, depth + 1));
                        if pa.base != pb.base || pa.base == Base::Unknown {
                            return Pointer::unknown();
                        }
                        let offset = if pa.offset == pb.offset {
                            pa.offset
                        } else {
                            None
                        };
                        Pointer {
                            base: pa.base,
                            offset,
                        }
                    }
                    _ => Pointer::unknown(),
                }
            }
        }
    }

    /// The base and byte offset of pointer `v`, when the offset is affine.
    pub fn address_of(&self, v: Value) -> Option<(Base, Affine)> {
        let p = self.pointer(v);
        Some((p.base, p.offset?))
    }

    /// The memory space a pointer value is declared to point into.
    pub fn declared_space(&self, v: Value) -> Space {
        self.module.types[self.func.values[v].ty]
            .ptr_space()
            .unwrap_or(Space::Generic)
    }

    /// True if parameters are the same for every thread (kernels and launch
    /// functions), so fixed values are uniform across a block.
    pub fn params_uniform(&self) -> bool {
        self.func.kind != FunctionKind::Device
    }
}

/// `a · b` when `a` varies by thread and `b` is `k · v + c` for one fixed
/// value `v`: `k · Σ a_s · (s·v) + k · a_0 · v + c · a`, each term of `a`
/// times `v` a [`Sym::Product`]. `None` if `a` has a product already or
/// does not vary by thread (a product of fixed values is itself fixed and
/// stays one opaque value).
fn times_fixed(a: &Affine, b: &Affine) -> Option<Affine> {
    if !a.varies_by_thread() || b.terms.len() != 1 {
        return None;
    }
    let (&s, &k) = b.terms.iter().next()?;
    let Sym::Value(v) = s else {
        return None;
    };
    let mut out = Affine::term(Sym::Value(v), a.constant.checked_mul(k)?);
    for (&t, &c) in &a.terms {
        let f = Factor::of(t)?;
        out = out.checked_add(&Affine::term(Sym::Product(f, v), c.checked_mul(k)?))?;
    }
    out.checked_add(&a.checked_scale(b.constant)?)
}

/// Reads the low `bits` of `raw` as a signed number (`i1` as 0 or 1): the
/// value of an integer constant of that width in an affine expression.
pub fn signed_const(raw: u64, bits: u8) -> i64 {
    match bits {
        1 => (raw & 1) as i64,
        64.. => raw as i64,
        b => {
            let shift = 64 - u32::from(b);
            ((raw << shift) as i64) >> shift
        }
    }
}

/// The affine form of integer value `v` of `func` (see
/// [`AffineAnalysis::affine_of`]).
pub fn affine_of(module: &Module, func: &Function, v: Value) -> Option<Affine> {
    AffineAnalysis::new(module, func).affine_of(v)
}

/// The base and affine byte offset of pointer `v` of `func` (see
/// [`AffineAnalysis::pointer`]).
pub fn address_of(module: &Module, func: &Function, v: Value) -> Option<(Base, Affine)> {
    AffineAnalysis::new(module, func).address_of(v)
}

/// The ranges the thread coordinates of one block take.
///
/// Thread ids range over `0..thread[d]` (`None`: unknown, possibly large);
/// lanes over `0..lanes`, warps over `0..warps`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coords {
    /// Block extent per dimension.
    pub thread: [Option<u64>; 3],
    /// Number of warps in the block.
    pub warps: Option<u64>,
    /// Lanes per warp (an upper bound is enough).
    pub lanes: u64,
}

impl Coords {
    /// Coordinates of a block with the given extents: 32 lanes, and as many
    /// warps as the extents imply when all are known.
    pub fn from_extents(thread: [Option<u64>; 3]) -> Coords {
        let warps = thread
            .iter()
            .try_fold(1u64, |acc, e| acc.checked_mul((*e)?))
            .map(|n| n.div_ceil(32));
        Coords {
            thread,
            warps,
            lanes: 32,
        }
    }
}

/// A lower bound on `|L(t) - L(t')|` for any two distinct threads `t ≠ t'`
/// of a block, where `L` is the thread-varying part of `a`; `None` if none
/// can be shown (two threads may share an address).
///
/// Thread coordinates are treated as independent variables in their
/// ranges; their coefficients sorted by magnitude must form a mixed-radix
/// system: each at least the span of the smaller ones. `Warp · 32 + Lane`
/// thus works like a linear thread id. The coordinates must identify the
/// thread: every dimension whose extent may exceed 1 has a nonzero
/// coefficient, or the lane does together with the warp (unless the block
/// has one warp).
fn thread_gap(a: &Affine, coords: &Coords) -> Option<i128> {
    // A coefficient known only at run time: no gap can be shown, unless
    // the coordinate it scales is the same (0) in every thread.
    let varying_product = |s: &Sym| match s {
        Sym::Product(Factor::Thread(d), _) => !matches!(coords.thread[d.index()], Some(0 | 1)),
        Sym::Product(f, _) => f.sym().varies_by_thread(),
        _ => false,
    };
    if a.terms.keys().any(varying_product) {
        return None;
    }
    let mut vars: Vec<(i128, Option<u64>)> = Vec::new();
    let mut by_thread_ids = true;
    for d in Dim::ALL {
        let c = a.coeff(Sym::Thread(d));
        let e = coords.thread[d.index()];
        if c != 0 {
            vars.push((i128::from(c).abs(), e));
        } else if !matches!(e, Some(0 | 1)) {
            by_thread_ids = false;
        }
    }
    let lane = a.coeff(Sym::Lane);
    let warp = a.coeff(Sym::Warp);
    if lane != 0 {
        vars.push((i128::from(lane).abs(), Some(coords.lanes)));
    }
    if warp != 0 {
        vars.push((i128::from(warp).abs(), coords.warps));
    }
    let by_lanes = lane != 0 && (warp != 0 || matches!(coords.warps, Some(0 | 1)));
    if !by_thread_ids && !by_lanes {
        return None;
    }
    vars.sort_by_key(|v| v.0);
    let mut span: i128 = 0;
    let mut gap = i128::MAX;
    for (k, &(c, e)) in vars.iter().enumerate() {
        gap = gap.min(c.saturating_sub(span));
        if k + 1 < vars.len() {
            let reach = i128::from(e?.max(1) - 1);
            span = span.saturating_add(c.saturating_mul(reach));
        }
    }
    Some(gap)
}

/// True only if distinct threads of one block, accessing `access_size`
/// bytes at byte offset `a`, touch disjoint bytes.
///
/// `extents` bound the thread ids per dimension (`None`: unknown, any size
/// ≥ 1). Every dimension that may have more than one thread needs a nonzero
/// coefficient, and sorted by magnitude each coefficient must be at least
/// the span of the smaller ones plus the access size
/// (`|c_k| ≥ Σ_{j<k} |c_j|·(e_j − 1) + size`), which needs the extents of
/// all but the largest. Lane and warp terms act like a linear thread id
/// `warp · 32 + lane`. [`Sym::Block`] and [`Sym::Value`] terms are the same
/// for every thread of a block and do not matter. When unsure: false.
pub fn is_thread_injective(a: &Affine, access_size: u64, extents: [Option<u64>; 3]) -> bool {
    thread_disjoint(
        a,
        access_size,
        a,
        access_size,
        &Coords::from_extents(extents),
    )
}

/// True only if, for any two distinct threads `t ≠ t'` of one block, the
/// `size_a` bytes at offset `a` accessed by `t` and the `size_b` bytes at
/// offset `b` accessed by `t'` are disjoint (same base object assumed).
///
/// With the same terms, the thread gap of [`is_thread_injective`] must
/// separate the two ranges whatever their relative order; otherwise (and
/// as a last resort) the fixed terms must agree and the two accesses must
/// never meet over all thread coordinates ([`ranges_apart`]).
pub fn thread_disjoint(a: &Affine, size_a: u64, b: &Affine, size_b: u64, coords: &Coords) -> bool {
    if a.terms != b.terms {
        return ranges_apart(a, size_a, b, size_b, coords);
    }
    let Some(gap) = thread_gap(a, coords) else {
        return false;
    };
    let d = i128::from(b.constant) - i128::from(a.constant);
    let need = (i128::from(size_b) + d).max(i128::from(size_a) - d);
    gap >= need
        || single_stride_disjoint(a, size_a, d, size_b, coords)
        || ranges_apart(a, size_a, b, size_b, coords)
}

/// True if the bytes `[a, +size_a)` and `[b, +size_b)` never meet for any
/// thread coordinates of either access, chosen independently (the same
/// thread included): the fixed terms agree, and the range of `a - b` over
/// the thread, lane and warp ids lies wholly outside the window where the
/// two would overlap. It separates accesses whose thread coefficients
/// differ, such as a tile's corner `s[0][0]` from its edge
/// `s[tx + 1][0]`, whatever the block's size.
fn ranges_apart(a: &Affine, size_a: u64, b: &Affine, size_b: u64, coords: &Coords) -> bool {
    // [lo, hi] of a sum of `c · id` terms, `None` for unbounded.
    let mut lo: Option<i128> = Some(i128::from(a.constant) - i128::from(b.constant));
    let mut hi = lo;
    let syms: std::collections::BTreeSet<Sym> =
        a.terms.keys().chain(b.terms.keys()).copied().collect();
    for s in syms {
        let (ca, cb) = (i128::from(a.coeff(s)), i128::from(b.coeff(s)));
        let extent = match s {
            Sym::Thread(d) => coords.thread[d.index()],
            Sym::Lane => Some(coords.lanes),
            Sym::Warp => coords.warps,
            Sym::Product(..) => return false,
            Sym::Block(_) | Sym::Value(_) => {
                if ca != cb {
                    return false;
                }
                continue;
            }
        };
        // The id ranges over [0, extent - 1]; `a`'s and `b`'s independently.
        let reach = extent.map(|e| i128::from(e.max(1) - 1));
        for c in [ca, -cb] {
            let far = reach.and_then(|r| c.checked_mul(r));
            if c > 0 {
                hi = hi.zip(far).and_then(|(h, f)| h.checked_add(f));
            } else if c < 0 {
                lo = lo.zip(far).and_then(|(l, f)| l.checked_add(f));
            }
        }
    }
    // They overlap exactly when `-size_a < a - b < size_b`.
    hi.is_some_and(|h| h <= -i128::from(size_a)) || lo.is_some_and(|l| l >= i128::from(size_b))
}

/// The exact test when one thread coordinate alone tells threads apart
/// (the others have extent 1): thread `t` accesses `[A + c·t, +size_a)`,
/// thread `t'` accesses `[A + d + c·t', +size_b)`; they meet exactly when
/// `k = t - t'` is a nonzero integer with `c·k` strictly between
/// `d - size_a` and `d + size_b` (and `|k|` below the extent when known).
/// It separates what the gap test cannot: an anti-diagonal of a row-major
/// tile, `s[m - tx + 1][tx + 1]` written and `s[m - tx][tx]` read, steps by
/// 16 elements per thread with the two 18 elements apart.
fn single_stride_disjoint(a: &Affine, size_a: u64, d: i128, size_b: u64, coords: &Coords) -> bool {
    let mut vars = Vec::new();
    for dim in Dim::ALL {
        let c = a.coeff(Sym::Thread(dim));
        let e = coords.thread[dim.index()];
        if c != 0 {
            vars.push((c, e));
        } else if !matches!(e, Some(0 | 1)) {
            return false;
        }
    }
    if a.coeff(Sym::Lane) != 0 || a.coeff(Sym::Warp) != 0 {
        return false;
    }
    let [(c, extent)] = vars[..] else {
        return false;
    };
    let c = i128::from(c).abs();
    let (lo, hi) = (d - i128::from(size_a), d + i128::from(size_b));
    // Integers k with lo < c·k < hi (|k| ranges symmetrically, so the
    // sign of the coefficient does not matter).
    let k_min = lo.div_euclid(c) + 1;
    let k_max = -((-hi).div_euclid(c)) - 1;
    let reach = extent.map_or(i128::MAX, |e| i128::from(e.max(1)) - 1);
    (k_min.max(-reach)..=k_max.min(reach)).all(|k| k == 0)
}

#[cfg(test)]
mod tests;
