//! Op shapes: operand, result and region counts and types of each op kind,
//! as documented on [`OpKind`]. The counts come from the op table
//! ([`OpKind::operand_arity`] and friends); the types are checked by hand,
//! values, casts and memory ops here, GPU ops, calls and structured ops in
//! their own modules.

use super::{calls, control, gpu, plural, FuncCx};
use crate::func::{Op, OpData};
use crate::ops::{Arity, AtomicOp, CastOp, OpKind};
use crate::types::{Space, Type, TypeId};
use crate::GlobalKind;

/// Runs the shape check of every reachable op.
pub(super) fn check(cx: &mut FuncCx<'_>) {
    for i in 0..cx.layout.order.len() {
        let op = cx.layout.order[i];
        let data = &cx.func.ops[op];
        let mut s = Shape {
            cx,
            op,
            data,
            counted: None,
        };
        s.regions_count();
        s.kind();
        // Ops with nothing else to check still get the op table's counts.
        s.counts();
    }
}

/// `2 operands`, `at least 1 result`, `1 to 4 results`.
fn describe(arity: Arity, thing: &str) -> String {
    match arity {
        Arity::Exact(k) => plural(k, thing),
        Arity::AtLeast(k) => format!("at least {}", plural(k, thing)),
        Arity::Between(lo, hi) => format!("{lo} to {hi} {thing}s"),
    }
}

/// A set of acceptable types.
#[derive(Clone, Debug)]
pub(super) enum Class {
    /// Any integer.
    Int,
    /// Any float.
    Float,
    /// Any pointer.
    Ptr,
    /// An integer or a pointer.
    IntOrPtr,
    /// An integer or a float.
    IntOrFloat,
    /// A 32- or 64-bit integer or float (what a shuffle moves).
    Word,
    /// Exactly this scalar type.
    Is(Type),
}

impl Class {
    /// `i32`, as a class.
    pub const I32: Class = Class::Is(Type::Int(32));
    /// `i64`, as a class.
    pub const I64: Class = Class::Is(Type::Int(64));
    /// `i1`, as a class.
    pub const I1: Class = Class::Is(Type::Int(1));

    fn accepts(&self, ty: &Type) -> bool {
        match self {
            Class::Int => ty.is_int(),
            Class::Float => ty.is_float(),
            Class::Ptr => ty.is_ptr(),
            Class::IntOrPtr => ty.is_int() || ty.is_ptr(),
            Class::IntOrFloat => ty.is_int() || ty.is_float(),
            Class::Word => match ty {
                Type::Int(b) => *b == 32 || *b == 64,
                Type::Float(k) => k.bytes() == 4 || k.bytes() == 8,
                _ => false,
            },
            Class::Is(t) => t == ty,
        }
    }

    fn describe(&self) -> String {
        match self {
            Class::Int => "an integer".into(),
            Class::Float => "a float".into(),
            Class::Ptr => "a pointer".into(),
            Class::IntOrPtr => "an integer or a pointer".into(),
            Class::IntOrFloat => "an integer or a float".into(),
            Class::Word => "a 32- or 64-bit integer or float".into(),
            Class::Is(t) => show_scalar(t),
        }
    }
}

/// Prints a scalar type the way the text format does.
pub(super) fn show_scalar(ty: &Type) -> String {
    match ty {
        Type::Int(b) => format!("i{b}"),
        Type::Float(k) => k.name().to_string(),
        Type::Ptr(s) => format!("ptr<{s}>"),
        Type::Array { len, .. } => format!("[{len} x ...]"),
        Type::Struct(s) => format!("${}", s.name),
    }
}

/// The shape check of one op.
pub(super) struct Shape<'c, 'a> {
    pub cx: &'c mut FuncCx<'a>,
    pub op: Op,
    pub data: &'a OpData,
    /// The outcome of [`Shape::counts`], once run.
    counted: Option<bool>,
}

impl Shape<'_, '_> {
    /// Reports an error about this op.
    pub fn err(&mut self, message: String) {
        self.cx.op_error(self.op, message);
    }

    /// The type of operand `i` (which must exist).
    pub fn operand(&self, i: usize) -> TypeId {
        self.cx.ty(self.data.operands[i])
    }

    /// The type of result `i` (which must exist).
    pub fn result(&self, i: usize) -> TypeId {
        self.cx.ty(self.data.results[i])
    }

    /// The operand types from `from` on.
    pub fn operand_types(&self, from: usize) -> Vec<TypeId> {
        let ops = self.data.operands.get(from..).unwrap_or(&[]);
        ops.iter().map(|&v| self.cx.ty(v)).collect()
    }

    /// The result types.
    pub fn result_types(&self) -> Vec<TypeId> {
        self.data.results.iter().map(|&v| self.cx.ty(v)).collect()
    }

    /// Checks the operand and result counts against the op table; false
    /// (reported) if either is off. Reports once however often it is asked,
    /// so a kind's check may run it where its other errors should follow.
    pub fn counts(&mut self) -> bool {
        if let Some(ok) = self.counted {
            return ok;
        }
        let mut ok = true;
        let operands = self.data.kind.operand_arity();
        let n = self.data.operands.len();
        if !operands.accepts(n) {
            self.err(format!(
                "expected {}, found {n}",
                describe(operands, "operand")
            ));
            ok = false;
        }
        let results = self.data.kind.result_arity();
        let n = self.data.results.len();
        if !results.accepts(n) {
            self.err(format!(
                "expected {}, found {n}",
                describe(results, "result")
            ));
            ok = false;
        }
        self.counted = Some(ok);
        ok
    }

    fn label(i: usize, role: &str) -> String {
        if role.is_empty() {
            format!("operand {i}")
        } else {
            format!("operand {i} ({role})")
        }
    }

    /// Checks that operand `i` is of `class`.
    pub fn operand_is(&mut self, i: usize, role: &str, class: Class) -> bool {
        self.operand_is_for(i, role, class, "")
    }

    /// Like [`Shape::operand_is`], saying what requires the class (`why`).
    pub fn operand_is_for(&mut self, i: usize, role: &str, class: Class, why: &str) -> bool {
        let ty = self.operand(i);
        if class.accepts(&self.cx.module.types[ty]) {
            return true;
        }
        let why = if why.is_empty() {
            String::new()
        } else {
            format!(" ({why})")
        };
        let m = format!(
            "{} has type {}, expected {}{why}",
            Self::label(i, role),
            self.cx.show(ty),
            class.describe()
        );
        self.err(m);
        false
    }

    /// Checks that operand `i` has type `ty`; `why` names where `ty` comes from.
    pub fn operand_eq(&mut self, i: usize, role: &str, ty: TypeId, why: &str) -> bool {
        let found = self.operand(i);
        if found == ty {
            return true;
        }
        let m = format!(
            "{} has type {}, expected {} ({why})",
            Self::label(i, role),
            self.cx.show(found),
            self.cx.show(ty)
        );
        self.err(m);
        false
    }

    /// Checks that result `i` is of `class`.
    pub fn result_is(&mut self, i: usize, class: Class) -> bool {
        let ty = self.result(i);
        if class.accepts(&self.cx.module.types[ty]) {
            return true;
        }
        let m = format!(
            "result {i} has type {}, expected {}",
            self.cx.show(ty),
            class.describe()
        );
        self.err(m);
        false
    }

    /// Checks that result `i` has type `ty`; `why` names where `ty` comes from.
    pub fn result_eq(&mut self, i: usize, ty: TypeId, why: &str) -> bool {
        let found = self.result(i);
        if found == ty {
            return true;
        }
        let m = format!(
            "result {i} has type {}, expected {} ({why})",
            self.cx.show(found),
            self.cx.show(ty)
        );
        self.err(m);
        false
    }

    /// Checks operand `i` against the type of operand `j`.
    pub fn operand_same(&mut self, i: usize, role: &str, j: usize, of: &str) -> bool {
        let ty = self.operand(j);
        self.operand_eq(i, role, ty, &format!("the type of {of}"))
    }

    fn regions_count(&mut self) {
        let want = self.data.kind.region_count();
        let n = self.data.regions.len();
        if n != want {
            self.err(format!("expected {}, found {n}", plural(want, "region")));
        }
    }

    fn kind(&mut self) {
        let data = self.data;
        match &data.kind {
            OpKind::Const { bits } => {
                if self.counts() {
                    self.constant(*bits);
                }
            }
            // The op table's counts are all there is to check.
            OpKind::Undef | OpKind::Fence { .. } => {}
            OpKind::Binary(op, flags) => {
                let class = if op.is_float() {
                    Class::Float
                } else {
                    Class::Int
                };
                if flags.nsw && !op.takes_nsw() {
                    self.err(format!(
                        "`nsw` applies only to integer `add`, `sub` and `mul`, not `{op}`"
                    ));
                }
                if self.counts() {
                    self.operand_is(0, "a", class);
                    self.operand_same(1, "b", 0, "operand 0");
                    let ty = self.operand(0);
                    self.result_eq(0, ty, "the type of operand 0");
                }
            }
            OpKind::Unary(op) => {
                let class = if op.is_float() {
                    Class::Float
                } else {
                    Class::Int
                };
                if self.counts() {
                    self.operand_is(0, "", class);
                    let ty = self.operand(0);
                    self.result_eq(0, ty, "the type of operand 0");
                }
            }
            OpKind::Cmp(pred) => {
                let class = if pred.is_float() {
                    Class::Float
                } else {
                    Class::IntOrPtr
                };
                if self.counts() {
                    let why = format!("predicate {}", pred.name());
                    self.operand_is_for(0, "a", class, &why);
                    self.operand_same(1, "b", 0, "operand 0");
                    self.result_is(0, Class::I1);
                }
            }
            OpKind::Cast(op) => {
                if self.counts() {
                    self.cast(*op);
                }
            }
            OpKind::Select => {
                if self.counts() {
                    self.operand_is(0, "cond", Class::I1);
                    self.operand_same(2, "b", 1, "operand 1");
                    let ty = self.operand(1);
                    self.result_eq(0, ty, "the type of operand 1");
                }
            }
            OpKind::If | OpKind::For { .. } | OpKind::While | OpKind::Parallel { .. } => {
                control::check_op(self)
            }
            // Operand types depend on the enclosing region: see `control`.
            OpKind::Yield | OpKind::Condition | OpKind::Return => {}
            OpKind::Call(callee) => calls::check(self, callee),
            OpKind::Alloca { space, ty: _ } => {
                if !matches!(space, Space::Private | Space::Shared) {
                    self.err(format!(
                        "alloca space must be private or shared, found {space}"
                    ));
                }
                if self.counts() {
                    self.result_is(0, Class::Is(Type::Ptr(*space)));
                }
            }
            OpKind::Load { .. } => {
                if self.counts() {
                    self.operand_is(0, "ptr", Class::Ptr);
                }
            }
            OpKind::Store { .. } => {
                if self.counts() {
                    self.operand_is(0, "ptr", Class::Ptr);
                }
            }
            OpKind::PtrIndex { .. } => {
                if self.counts() {
                    self.operand_is(0, "base", Class::Ptr);
                    self.operand_is(1, "index", Class::Int);
                    let ty = self.operand(0);
                    self.result_eq(0, ty, "the type of operand 0");
                }
            }
            OpKind::PtrField { ty, field } => {
                self.ptr_field(*ty, *field);
                if self.counts() {
                    self.operand_is(0, "base", Class::Ptr);
                    let ty = self.operand(0);
                    self.result_eq(0, ty, "the type of operand 0");
                }
            }
            OpKind::GlobalAddr(g) => {
                let global = &self.cx.module.globals[*g];
                if global.kind != GlobalKind::Variable {
                    self.err(format!(
                        "@{} is a texture reference, not a variable; use tex.ref",
                        global.name
                    ));
                }
                if self.counts() {
                    self.result_is(0, Class::Is(Type::Ptr(global.space)));
                }
            }
            OpKind::DynamicShared => {
                if self.counts() {
                    self.result_is(0, Class::Is(Type::Ptr(Space::Shared)));
                }
            }
            OpKind::Memcpy => {
                if self.counts() {
                    self.operand_is(0, "dst", Class::Ptr);
                    self.operand_is(1, "src", Class::Ptr);
                    self.operand_is(2, "len", Class::I64);
                }
            }
            OpKind::Memset => {
                if self.counts() {
                    self.operand_is(0, "dst", Class::Ptr);
                    self.operand_is(1, "byte", Class::Is(Type::Int(8)));
                    self.operand_is(2, "len", Class::I64);
                }
            }
            OpKind::Prefetch => {
                if self.counts() {
                    self.operand_is(0, "ptr", Class::Ptr);
                    self.operand_is(1, "len", Class::I64);
                }
            }
            OpKind::AtomicRmw { op, .. } => {
                let class = match op {
                    AtomicOp::FAdd | AtomicOp::FMin | AtomicOp::FMax => Class::Float,
                    _ => Class::Int,
                };
                if self.counts() {
                    self.operand_is(0, "ptr", Class::Ptr);
                    let why = format!("atomic {}", op.name());
                    self.operand_is_for(1, "value", class, &why);
                    let ty = self.operand(1);
                    self.result_eq(0, ty, "the type of operand 1");
                }
            }
            OpKind::AtomicCas { .. } => {
                if self.counts() {
                    self.operand_is(0, "ptr", Class::Ptr);
                    self.operand_is(1, "expected", Class::Int);
                    self.operand_same(2, "new", 1, "operand 1");
                    let ty = self.operand(1);
                    self.result_eq(0, ty, "the type of operand 1");
                }
            }
            _ => gpu::check(self),
        }
    }

    /// A constant's bits fit its type.
    fn constant(&mut self, bits: u64) {
        let ty = self.result(0);
        let width = match &self.cx.module.types[ty] {
            Type::Int(b) => u32::from(*b),
            Type::Float(k) => (k.bytes() * 8) as u32,
            Type::Ptr(_) => {
                if bits != 0 {
                    self.err(format!(
                        "pointer constants must be null (0), found {bits:#x}"
                    ));
                }
                return;
            }
            _ => return,
        };
        if width < 64 && bits >> width != 0 {
            let m = format!("value {bits:#x} does not fit in {}", self.cx.show(ty));
            self.err(m);
        }
    }

    fn cast(&mut self, op: CastOp) {
        let (from_id, to_id) = (self.operand(0), self.result(0));
        let types = &self.cx.module.types;
        let (from, to) = (&types[from_id], &types[to_id]);
        let int_bits = |t: &Type| t.int_bits().map(u64::from);
        let float_bits = |t: &Type| t.float_kind().map(|k| k.bytes() * 8);
        let (ok, rule) = match op {
            CastOp::Trunc => (
                matches!((int_bits(from), int_bits(to)), (Some(a), Some(b)) if b < a),
                "an integer operand and a narrower integer result",
            ),
            CastOp::ZExt | CastOp::SExt => (
                matches!((int_bits(from), int_bits(to)), (Some(a), Some(b)) if b > a),
                "an integer operand and a wider integer result",
            ),
            CastOp::FpTrunc => (
                matches!((float_bits(from), float_bits(to)), (Some(a), Some(b)) if b < a),
                "a float operand and a narrower float result",
            ),
            CastOp::FpExt => (
                matches!((float_bits(from), float_bits(to)), (Some(a), Some(b)) if b > a),
                "a float operand and a wider float result",
            ),
            CastOp::FpToSi | CastOp::FpToUi => (
                from.is_float() && to.is_int(),
                "a float operand and an integer result",
            ),
            CastOp::SiToFp | CastOp::UiToFp => (
                from.is_int() && to.is_float(),
                "an integer operand and a float result",
            ),
            CastOp::Bitcast => (
                match (
                    int_bits(from),
                    float_bits(to),
                    float_bits(from),
                    int_bits(to),
                ) {
                    (Some(a), Some(b), _, _) | (_, _, Some(a), Some(b)) => a == b,
                    _ => false,
                },
                "an integer and a float of the same size",
            ),
            CastOp::PtrToInt => (
                from.is_ptr() && to.is_int(),
                "a pointer operand and an integer result",
            ),
            CastOp::IntToPtr => (
                from.is_int() && to.is_ptr(),
                "an integer operand and a pointer result",
            ),
            CastOp::SpaceCast => (
                from.is_ptr() && to.is_ptr(),
                "a pointer operand and a pointer result",
            ),
        };
        if !ok {
            let m = format!(
                "cannot convert {} to {}: {} takes {rule}",
                self.cx.show(from_id),
                self.cx.show(to_id),
                op.name()
            );
            self.err(m);
        }
    }

    fn ptr_field(&mut self, ty: TypeId, field: u32) {
        match &self.cx.module.types[ty] {
            Type::Struct(s) => {
                if field as usize >= s.fields.len() {
                    let m = format!(
                        "field {field} is out of range for {} ({})",
                        self.cx.show(ty),
                        plural(s.fields.len(), "field")
                    );
                    self.err(m);
                }
            }
            _ => {
                let m = format!("type attribute {} is not a struct", self.cx.show(ty));
                self.err(m);
            }
        }
    }
}
