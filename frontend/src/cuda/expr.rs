//! Expressions: rvalues (SSA scalars or aggregates in memory), lvalues
//! (addresses), and aggregate initialisation into a destination.

use std::rc::Rc;

use cucc_ir::{
    ArithFlags, BinOp, CastOp, CmpPred, FloatKind, OpKind, Space, Type, TypeId, UnOp, Value,
};

use super::ctype::CType;
use super::diag::{DiagLoc, Diagnostic};
use super::func::{FnCx, Storage, R};
use super::records::parse_int_text;
use crate::ast::{Kind, LiteralValue, Node, NodeId, ValueCategory};

/// The value of an expression.
#[derive(Clone, Copy, Debug)]
pub enum RV {
    /// An SSA scalar.
    Scalar(Value),
    /// An aggregate at this address.
    Agg(Value),
    /// No value.
    Void,
}

/// Skips parentheses and value-preserving wrappers.
pub fn strip(mut n: &Node) -> &Node {
    loop {
        match n.kind {
            Kind::ParenExpr | Kind::ExprWithCleanups | Kind::CXXBindTemporaryExpr => {
                match n.inner.first() {
                    Some(c) => n = c,
                    None => return n,
                }
            }
            Kind::ImplicitCastExpr if n.cast_kind.as_deref() == Some("NoOp") => {
                match n.inner.first() {
                    Some(c) => n = c,
                    None => return n,
                }
            }
            _ => return n,
        }
    }
}

fn child(n: &Node, i: usize) -> R<&Node> {
    n.inner
        .get(i)
        .ok_or_else(|| Diagnostic::at(n, format!("malformed {} (missing operand)", n.kind.name())))
}

/// Unescapes the text of a C string literal (with its quotes).
pub fn unescape_c(lit: &str) -> Vec<u8> {
    let s = lit
        .trim_start_matches(['L', 'u', 'U', '8'])
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .unwrap_or(lit);
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' || i + 1 >= b.len() {
            out.push(b[i]);
            i += 1;
            continue;
        }
        i += 1;
        let c = b[i];
        i += 1;
        match c {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'r' => out.push(b'\r'),
            b'a' => out.push(7),
            b'b' => out.push(8),
            b'f' => out.push(12),
            b'v' => out.push(11),
            b'e' => out.push(27),
            b'x' => {
                let mut v: u32 = 0;
                while i < b.len() && (b[i] as char).is_ascii_hexdigit() {
                    v = v * 16 + (b[i] as char).to_digit(16).unwrap_or(0);
                    i += 1;
                }
                out.push(v as u8);
            }
            b'0'..=b'7' => {
                let mut v: u32 = u32::from(c - b'0');
                let mut k = 0;
                while k < 2 && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                    v = v * 8 + u32::from(b[i] - b'0');
                    i += 1;
                    k += 1;
                }
                out.push(v as u8);
            }
            other => out.push(other),
        }
    }
    out
}

/// The bytes of a string literal node (through casts and `__extension__`).
pub fn string_of(n: &Node) -> Option<Vec<u8>> {
    let n = strip(n);
    match n.kind {
        Kind::StringLiteral => match &n.value {
            Some(LiteralValue::Text(t)) => Some(unescape_c(t)),
            _ => None,
        },
        Kind::ImplicitCastExpr
        | Kind::UnaryOperator
        | Kind::PredefinedExpr
        | Kind::CStyleCastExpr => n.inner.iter().find_map(string_of),
        _ => None,
    }
}

impl<'m, 'a> FnCx<'m, 'a> {
    /// Evaluates `e` for its effects only.
    pub fn discard(&mut self, e: &'a Node) -> R<()> {
        self.rvalue(e).map(|_| ())
    }

    /// An SSA scalar value of `e`.
    pub fn scalar(&mut self, e: &'a Node) -> R<Value> {
        match self.rvalue(e)? {
            RV::Scalar(v) => Ok(v),
            _ => self.err(e, format!("expected a scalar value from {}", e.kind.name())),
        }
    }

    /// Loads a scalar of C type `ct` from `addr`.
    pub fn load(&mut self, addr: Value, ct: &CType, at: &Node) -> R<Value> {
        let Some(t) = self.mc.scalar_ty(ct) else {
            return self.err(at, "load of an aggregate");
        };
        let vol = ct.is_volatile();
        let mut b = self.b();
        Ok(b.op1(
            OpKind::Load {
                volatile: vol,
                speculative: false,
            },
            vec![addr],
            t,
        ))
    }

    /// A temporary of C type `ct` at function entry.
    pub fn temp(&mut self, ct: &CType, at: &Node) -> R<Value> {
        let t = self.mc.mem_ty(ct, at)?;
        Ok(self.entry_alloca(t))
    }

    /// The address of an object holding `e`'s value (its own for lvalues).
    pub fn materialise(&mut self, e: &'a Node) -> R<Value> {
        if matches!(
            e.value_category,
            Some(ValueCategory::LValue | ValueCategory::XValue)
        ) {
            return self.lvalue(e);
        }
        let ct = self.ty_of(e)?;
        if self.mc.scalar_ty(&ct).is_none() {
            let t = self.temp(&ct, e)?;
            self.agg_into(e, t)?;
            return Ok(t);
        }
        match self.rvalue(e)? {
            RV::Agg(p) => Ok(p),
            RV::Scalar(v) => {
                let t = self.temp(&ct, e)?;
                self.b().store(t, v);
                Ok(t)
            }
            RV::Void => self.err(e, "void value used as an object"),
        }
    }

    /// Converts `v` of C type `from` to `to`.
    pub fn convert(&mut self, v: Value, from: &CType, to: &CType, at: &Node) -> R<Value> {
        let from = self.mc.resolve(from);
        let to = self.mc.resolve(to);
        if matches!(to, CType::Bool) {
            return self.to_bool(v, &from, at);
        }
        let Some(tt) = self.mc.scalar_ty(&to) else {
            return self.err(at, "conversion to a non-scalar type");
        };
        let ft = self.func.value_type(v);
        if ft == tt {
            return Ok(v);
        }
        let (fty, tty) = (
            self.mc.module.types[ft].clone(),
            self.mc.module.types[tt].clone(),
        );
        let signed = from.is_signed();
        let mut b = self.b();
        Ok(match (&fty, &tty) {
            (Type::Int(a), Type::Int(c)) => {
                if c < a {
                    b.cast(CastOp::Trunc, v, tt)
                } else if signed && *a > 1 {
                    b.cast(CastOp::SExt, v, tt)
                } else {
                    b.cast(CastOp::ZExt, v, tt)
                }
            }
            (Type::Int(a), Type::Float(_)) => {
                if signed && *a > 1 {
                    b.cast(CastOp::SiToFp, v, tt)
                } else {
                    b.cast(CastOp::UiToFp, v, tt)
                }
            }
            (Type::Float(_), Type::Int(bits)) => {
                // Into 8 and 16 bits nvcc converts to 32 bits (saturating)
                // and keeps the low bits: (signed char)300.5f is 44.
                let (via, narrow) = if *bits > 1 && *bits < 32 {
                    (b.types.i32(), true)
                } else {
                    (tt, false)
                };
                let w = if to.is_signed() {
                    b.cast(CastOp::FpToSi, v, via)
                } else {
                    b.cast(CastOp::FpToUi, v, via)
                };
                if narrow {
                    b.cast(CastOp::Trunc, w, tt)
                } else {
                    w
                }
            }
            (Type::Float(x), Type::Float(y)) => {
                let (xb, yb) = (x.bytes(), y.bytes());
                if xb == yb {
                    // f16 <-> bf16 through f32 (exact widening, one rounding).
                    let f = b.types.f32();
                    let w = b.cast(CastOp::FpExt, v, f);
                    b.cast(CastOp::FpTrunc, w, tt)
                } else if yb < xb {
                    b.cast(CastOp::FpTrunc, v, tt)
                } else {
                    b.cast(CastOp::FpExt, v, tt)
                }
            }
            (Type::Ptr(_), Type::Int(_)) => b.cast(CastOp::PtrToInt, v, tt),
            (Type::Int(_), Type::Ptr(_)) => b.cast(CastOp::IntToPtr, v, tt),
            (Type::Ptr(_), Type::Ptr(_)) => b.cast(CastOp::SpaceCast, v, tt),
            _ => return self.err(at, "unsupported conversion"),
        })
    }

    /// `v != 0` as `i1`.
    pub fn to_bool(&mut self, v: Value, from: &CType, at: &Node) -> R<Value> {
        let t = self.func.value_type(v);
        let ty = self.mc.module.types[t].clone();
        let _ = from;
        let mut b = self.b();
        Ok(match ty {
            Type::Int(1) => v,
            Type::Int(_) => {
                let z = b.const_int(t, 0);
                b.cmp(CmpPred::Ne, v, z)
            }
            Type::Float(_) => {
                let z = b.const_float(t, 0.0);
                b.cmp(CmpPred::FUne, v, z)
            }
            Type::Ptr(_) => {
                let z = b.op1(OpKind::Const { bits: 0 }, vec![], t);
                b.cmp(CmpPred::Ne, v, z)
            }
            _ => return self.err(at, "not a scalar condition"),
        })
    }

    /// The value of an expression.
    pub fn rvalue(&mut self, e: &'a Node) -> R<RV> {
        self.rvalue_as(e, false)
    }

    /// `rvalue`, treating `e` as a prvalue when `prvalue` is set (for
    /// nodes clang calls lvalues that have no address of their own).
    fn rvalue_as(&mut self, e: &'a Node, prvalue: bool) -> R<RV> {
        self.at(e);
        if !prvalue
            && matches!(
                e.value_category,
                Some(ValueCategory::LValue | ValueCategory::XValue)
            )
        {
            let addr = self.lvalue(e)?;
            let ct = self.ty_of(e)?;
            return Ok(if self.mc.scalar_ty(&ct).is_some() {
                RV::Scalar(self.load(addr, &ct, e)?)
            } else {
                RV::Agg(addr)
            });
        }
        let ct = self.ty_of(e)?;
        match &e.kind {
            Kind::IntegerLiteral | Kind::CharacterLiteral | Kind::CXXBoolLiteralExpr => {
                let v = match &e.value {
                    Some(LiteralValue::Text(t)) => parse_int_text(t),
                    Some(LiteralValue::Number(x)) => {
                        x.as_i64().or_else(|| x.as_u64().map(|u| u as i64))
                    }
                    Some(LiteralValue::Bool(b)) => Some(i64::from(*b)),
                    None => None,
                };
                let v = v.ok_or_else(|| Diagnostic::at(e, "malformed literal"))?;
                self.const_of(&ct, v, e)
            }
            Kind::FloatingLiteral => {
                if !matches!(&e.value, Some(LiteralValue::Text(_))) {
                    return self.err(e, "malformed literal");
                }
                let t = self
                    .mc
                    .scalar_ty(&ct)
                    .ok_or_else(|| Diagnostic::at(e, "bad float type"))?;
                let text = match &e.value {
                    Some(LiteralValue::Text(s)) => s.clone(),
                    _ => String::new(),
                };
                let bits = match self.mc.module.types[t] {
                    Type::Float(FloatKind::F32) => u64::from(
                        text.parse::<f32>()
                            .map_err(|_| Diagnostic::at(e, "malformed literal"))?
                            .to_bits(),
                    ),
                    Type::Float(FloatKind::F64) => text
                        .parse::<f64>()
                        .map_err(|_| Diagnostic::at(e, "malformed literal"))?
                        .to_bits(),
                    _ => {
                        let x: f64 = text
                            .parse()
                            .map_err(|_| Diagnostic::at(e, "malformed literal"))?;
                        let v = self.b().const_float(t, x);
                        return Ok(RV::Scalar(v));
                    }
                };
                Ok(RV::Scalar(self.b().op1(OpKind::Const { bits }, vec![], t)))
            }
            Kind::CXXNullPtrLiteralExpr | Kind::Other(_)
                if e.kind.name() == "GNUNullExpr" || e.kind == Kind::CXXNullPtrLiteralExpr =>
            {
                Ok(RV::Scalar(self.b().null(Space::Generic)))
            }
            Kind::ParenExpr
            | Kind::ExprWithCleanups
            | Kind::CXXBindTemporaryExpr
            | Kind::SubstNonTypeTemplateParmExpr => {
                let c = child(e, 0)?;
                let c = c
                    .inner
                    .last()
                    .filter(|_| c.kind == Kind::NonTypeTemplateParmDecl)
                    .unwrap_or(c);
                let c = if e.kind == Kind::SubstNonTypeTemplateParmExpr {
                    e.inner.last().unwrap_or(c)
                } else {
                    c
                };
                self.rvalue(c)
            }
            Kind::ConstantExpr => {
                if let (Some(LiteralValue::Text(t)), true) = (&e.value, ct.is_integral()) {
                    if let Some(v) = parse_int_text(t) {
                        return self.const_of(&ct, v, e);
                    }
                }
                self.rvalue(child(e, 0)?)
            }
            Kind::ImplicitCastExpr
            | Kind::CStyleCastExpr
            | Kind::CXXStaticCastExpr
            | Kind::CXXFunctionalCastExpr
            | Kind::CXXReinterpretCastExpr
            | Kind::CXXConstCastExpr => self.cast_expr(e, &ct),
            Kind::UnaryOperator => self.unary(e, &ct),
            Kind::BinaryOperator => self.binary(e, &ct),
            Kind::ConditionalOperator => self.conditional(e, &ct),
            Kind::CallExpr | Kind::CXXMemberCallExpr | Kind::CXXOperatorCallExpr => {
                self.call(e, None)
            }
            Kind::CUDAKernelCallExpr => self.err(
                e,
                "kernel launches from device code (dynamic parallelism) are not supported",
            ),
            Kind::CXXConstructExpr
            | Kind::CXXTemporaryObjectExpr
            | Kind::InitListExpr
            | Kind::ImplicitValueInitExpr => {
                if let Some(st) = self.mc.scalar_ty(&ct) {
                    if e.kind == Kind::ImplicitValueInitExpr
                        || (e.kind == Kind::InitListExpr && e.inner.is_empty())
                    {
                        let z = self.b().op1(OpKind::Const { bits: 0 }, vec![], st);
                        return Ok(RV::Scalar(z));
                    }
                    if e.kind == Kind::InitListExpr {
                        return self.rvalue(child(e, 0)?);
                    }
                }
                let t = self.temp(&ct, e)?;
                self.agg_into(e, t)?;
                if self.mc.scalar_ty(&ct).is_some() {
                    return Ok(RV::Scalar(self.load(t, &ct, e)?));
                }
                Ok(RV::Agg(t))
            }
            Kind::Other(k) if &**k == "CXXScalarValueInitExpr" => {
                let st = self
                    .mc
                    .scalar_ty(&ct)
                    .ok_or_else(|| Diagnostic::at(e, "bad value-initialisation"))?;
                Ok(RV::Scalar(self.b().op1(
                    OpKind::Const { bits: 0 },
                    vec![],
                    st,
                )))
            }
            Kind::CXXThisExpr => match self.this {
                Some(t) => Ok(RV::Scalar(t)),
                None => self.err(e, "'this' outside a member function"),
            },
            Kind::UnaryExprOrTypeTraitExpr => self.size_align(e, &ct),
            Kind::TypeTraitExpr | Kind::CXXNoexceptExpr => match &e.value {
                Some(LiteralValue::Bool(b)) => self.const_of(&ct, i64::from(*b), e),
                _ => self.err(
                    e,
                    format!("{} is not supported in device code", e.kind.name()),
                ),
            },
            Kind::DeclRefExpr => {
                let Some(d) = &e.referenced_decl else {
                    return self.err(e, "reference to an unknown declaration");
                };
                if d.kind == Kind::EnumConstantDecl {
                    let v = self
                        .mc
                        .records
                        .enum_values
                        .get(&d.id)
                        .copied()
                        .ok_or_else(|| Diagnostic::at(e, "unknown enumerator"))?;
                    return self.const_of(&ct, v, e);
                }
                if d.kind == Kind::NonTypeTemplateParmDecl {
                    return self.err(e, "uninstantiated template parameter");
                }
                self.err(
                    e,
                    format!(
                        "'{}' cannot be used as a value here",
                        d.name.as_deref().unwrap_or("?")
                    ),
                )
            }
            Kind::MaterializeTemporaryExpr => {
                let a = self.lvalue(e)?;
                Ok(RV::Agg(a))
            }
            Kind::CXXDefaultArgExpr => self.err(e, "default argument outside a call"),
            Kind::CXXDefaultInitExpr => {
                self.err(e, "default member initialiser outside a constructor")
            }
            Kind::LambdaExpr => {
                let t = self.temp(&ct, e)?;
                self.lambda_into(e, t)?;
                Ok(RV::Agg(t))
            }
            Kind::CXXNewExpr => self.err(
                e,
                "dynamic allocation (new) is not supported in device code",
            ),
            Kind::CXXDeleteExpr => self.err(
                e,
                "dynamic allocation (delete) is not supported in device code",
            ),
            Kind::CXXThrowExpr => self.err(e, "exceptions are not supported in device code"),
            Kind::StmtExpr => self.err(e, "statement expressions are not supported in device code"),
            Kind::VAArgExpr => self.err(e, "variadic functions are not supported in device code"),
            k => self.err(
                e,
                format!("expression '{}' is not supported in device code", k.name()),
            ),
        }
    }

    /// A constant of C type `ct`.
    pub fn const_of(&mut self, ct: &CType, v: i64, at: &Node) -> R<RV> {
        let t = self
            .mc
            .scalar_ty(ct)
            .ok_or_else(|| Diagnostic::at(at, "bad constant type"))?;
        let ty = self.mc.module.types[t].clone();
        let mut b = self.b();
        Ok(RV::Scalar(match ty {
            Type::Int(1) => b.bool(v != 0),
            Type::Int(_) => b.const_int(t, v),
            Type::Float(_) => b.const_float(t, v as f64),
            _ => b.op1(OpKind::Const { bits: 0 }, vec![], t),
        }))
    }

    fn size_align(&mut self, e: &'a Node, ct: &CType) -> R<RV> {
        let arg = match e.extra("argType") {
            Some(_) => None,
            None => Some(self.ty_of(child(e, 0)?)?),
        };
        let v = self.mc.size_align_of(e, arg)?;
        self.const_of(ct, v as i64, e)
    }

    fn cast_expr(&mut self, e: &'a Node, ct: &CType) -> R<RV> {
        let c = child(e, 0)?;
        let kind = e.cast_kind.as_deref().unwrap_or("");
        match kind {
            "LValueToRValue" => {
                if let Some(v) = self.builtin_var_member(c)? {
                    return Ok(RV::Scalar(v));
                }
                if let Some(v) = self.builtin_scalar_var(c)? {
                    return Ok(RV::Scalar(v));
                }
                let ct_src = self.ty_of(c)?;
                let addr = self.lvalue(c)?;
                if self.mc.scalar_ty(&ct_src).is_some() {
                    Ok(RV::Scalar(self.load(addr, &ct_src, c)?))
                } else {
                    Ok(RV::Agg(addr))
                }
            }
            "NoOp"
            | "ConstructorConversion"
            | "UserDefinedConversion"
            | "LValueBitCast"
            | "AtomicToNonAtomic"
            | "NonAtomicToAtomic"
            | "AddressSpaceConversion" => {
                let r = self.rvalue(c)?;
                match r {
                    RV::Scalar(v) if ct.is_ptr() => Ok(RV::Scalar(self.to_generic(v))),
                    r => Ok(r),
                }
            }
            "ToVoid" => {
                self.discard(c)?;
                Ok(RV::Void)
            }
            "IntegralCast"
            | "IntegralToBoolean"
            | "FloatingToBoolean"
            | "PointerToBoolean"
            | "IntegralToFloating"
            | "FloatingToIntegral"
            | "FloatingCast"
            | "IntegralToPointer"
            | "PointerToIntegral"
            | "BooleanToSignedIntegral" => {
                let from = self.ty_of(c)?;
                let v = self.scalar(c)?;
                let mut r = self.convert(v, &from, ct, e)?;
                if kind == "BooleanToSignedIntegral" {
                    let t = self.func.value_type(r);
                    let mut b = self.b();
                    let z = b.const_int(t, 0);
                    r = b.binary(BinOp::Sub, z, r);
                }
                Ok(RV::Scalar(r))
            }
            "ArrayToPointerDecay" => {
                let a = self.lvalue(c)?;
                Ok(RV::Scalar(self.to_generic(a)))
            }
            "BitCast" => {
                let v = self.scalar(c)?;
                Ok(RV::Scalar(self.to_generic(v)))
            }
            "NullToPointer" => {
                self.discard(c)?;
                Ok(RV::Scalar(self.b().null(Space::Generic)))
            }
            "DerivedToBase" | "UncheckedDerivedToBase" => {
                // A pointer (prvalue) to the base subobject.
                let v = self.scalar(c)?;
                let from = self.ty_of(c)?;
                let p = self.base_address(
                    v,
                    from.pointee().cloned().unwrap_or(CType::Void),
                    ct.pointee().cloned().unwrap_or(CType::Void),
                    e,
                )?;
                Ok(RV::Scalar(p))
            }
            // A function's "address" is its pointer (see `decl_ref`).
            "FunctionToPointerDecay" => Ok(RV::Scalar(self.lvalue(c)?)),
            "BuiltinFnToFnPtr" => self.err(
                e,
                "pointers to built-in functions are not supported in device code",
            ),
            "Dependent" => self.err(e, "uninstantiated template code"),
            k => self.err(e, format!("cast '{k}' is not supported in device code")),
        }
    }

    /// The address of the `to` base subobject of the `from` object at `p`.
    fn base_address(&mut self, p: Value, from: CType, to: CType, at: &Node) -> R<Value> {
        let (CType::Named(f), CType::Named(t)) = (from.strip().clone(), to.strip().clone()) else {
            return Ok(p);
        };
        // Walk down the base chain.
        let mut cur = p;
        let mut name: Rc<str> = f;
        for _ in 0..16 {
            if *name == *t {
                return Ok(cur);
            }
            let l = self.mc.layout(&name, at)?;
            let tl = self.mc.layout(&t, at)?;
            if let Some((b, i)) = l.bases.iter().find(|(b, _)| **b == *t).cloned() {
                let _ = b;
                return Ok(self.b().ptr_field(cur, l.ty, i));
            }
            if tl.empty {
                return Ok(cur);
            }
            match l.bases.first().cloned() {
                Some((b, i)) => {
                    cur = self.b().ptr_field(cur, l.ty, i);
                    name = b;
                }
                None => return self.err(at, format!("'{t}' is not a base of '{name}'")),
            }
        }
        self.err(at, "base class chain too deep")
    }

    /// The address an lvalue expression designates.
    pub fn lvalue(&mut self, e: &'a Node) -> R<Value> {
        self.at(e);
        match &e.kind {
            Kind::ParenExpr
            | Kind::ExprWithCleanups
            | Kind::CXXBindTemporaryExpr
            | Kind::ConstantExpr => self.lvalue(child(e, 0)?),
            Kind::SubstNonTypeTemplateParmExpr => self.lvalue(
                e.inner
                    .last()
                    .ok_or_else(|| Diagnostic::at(e, "malformed"))?,
            ),
            Kind::DeclRefExpr => self.decl_ref(e),
            Kind::MemberExpr => self.member(e),
            Kind::ArraySubscriptExpr => self.subscript(e),
            Kind::StringLiteral | Kind::PredefinedExpr => {
                let bytes =
                    string_of(e).ok_or_else(|| Diagnostic::at(e, "malformed string literal"))?;
                let ct = self.ty_of(e)?;
                let g = self.mc.string_global(bytes, &ct, e)?;
                Ok(self.b().global_addr(g, Space::Constant))
            }
            Kind::UnaryOperator => {
                let op = e.opcode.as_deref().unwrap_or("");
                let c = child(e, 0)?;
                match op {
                    "*" => {
                        let v = self.scalar(c)?;
                        Ok(v)
                    }
                    "++" | "--" => {
                        let addr = self.lvalue(c)?;
                        let ct = self.ty_of(c)?;
                        self.inc_dec(addr, &ct, op == "++", e)?;
                        Ok(addr)
                    }
                    "__extension__" => self.lvalue(c),
                    _ => self.err(e, format!("operator '{op}' does not give an lvalue")),
                }
            }
            Kind::BinaryOperator => {
                let op = e.opcode.as_deref().unwrap_or("");
                match op {
                    "=" => {
                        let (l, r) = (child(e, 0)?, child(e, 1)?);
                        let ct = self.ty_of(l)?;
                        if self.mc.scalar_ty(&ct).is_some() {
                            let v = self.scalar(r)?;
                            let v = self.to_generic(v);
                            let addr = self.lvalue(l)?;
                            self.store(addr, v, &ct);
                            Ok(addr)
                        } else {
                            let addr = self.lvalue(l)?;
                            self.agg_into(r, addr)?;
                            Ok(addr)
                        }
                    }
                    "," => {
                        self.discard(child(e, 0)?)?;
                        self.lvalue(child(e, 1)?)
                    }
                    _ => self.err(e, format!("operator '{op}' does not give an lvalue")),
                }
            }
            Kind::CompoundAssignOperator => self.compound_assign(e),
            Kind::ConditionalOperator => {
                let c = self.cond(child(e, 0)?)?;
                let gp = self.mc.generic_ptr();
                let (op, t, f) = self.b().create_if(c, &[gp]);
                let saved = self.cur;
                for (r, k) in [(t, 1), (f, 2)] {
                    self.cur = r;
                    let a = self.lvalue(child(e, k)?)?;
                    let a = self.to_generic(a);
                    self.b().yield_(vec![a]);
                }
                self.cur = saved;
                Ok(self.func.ops[op].results[0])
            }
            Kind::MaterializeTemporaryExpr => {
                let c = child(e, 0)?;
                if matches!(
                    c.value_category,
                    Some(ValueCategory::LValue | ValueCategory::XValue)
                ) {
                    return self.lvalue(c);
                }
                self.materialise(c)
            }
            Kind::ImplicitCastExpr
            | Kind::CStyleCastExpr
            | Kind::CXXStaticCastExpr
            | Kind::CXXFunctionalCastExpr
            | Kind::CXXReinterpretCastExpr
            | Kind::CXXConstCastExpr => {
                let c = child(e, 0)?;
                match e.cast_kind.as_deref() {
                    Some("NoOp") | Some("LValueBitCast") | Some("ToUnion") => self.lvalue(c),
                    Some("DerivedToBase") | Some("UncheckedDerivedToBase") => {
                        let a = self.lvalue(c)?;
                        let from = self.ty_of(c)?;
                        let to = self.ty_of(e)?;
                        self.base_address(a, from, to, e)
                    }
                    _ => self.materialise_rv(e),
                }
            }
            Kind::CallExpr | Kind::CXXMemberCallExpr | Kind::CXXOperatorCallExpr => {
                // A call returning a reference gives the address.
                let ct = self.ty_of(e)?;
                let _ = ct;
                match self.call(e, None)? {
                    RV::Scalar(v) => Ok(v),
                    RV::Agg(p) => Ok(p),
                    RV::Void => self.err(e, "void call used as an object"),
                }
            }
            _ => self.materialise_rv(e),
        }
    }

    fn materialise_rv(&mut self, e: &'a Node) -> R<Value> {
        let ct = self.ty_of(e)?;
        if self.mc.scalar_ty(&ct).is_none() {
            let t = self.temp(&ct, e)?;
            self.agg_into(e, t)?;
            return Ok(t);
        }
        let saved = e.value_category;
        let _ = saved;
        match self.rvalue_prvalue(e)? {
            RV::Agg(p) => Ok(p),
            RV::Scalar(v) => {
                let t = self.temp(&ct, e)?;
                self.b().store(t, v);
                Ok(t)
            }
            RV::Void => self.err(e, "void value used as an object"),
        }
    }

    /// `rvalue` for a node whose category says lvalue but that has no address.
    fn rvalue_prvalue(&mut self, e: &'a Node) -> R<RV> {
        self.rvalue_as(e, true)
    }

    fn var_decl_node(&self, id: NodeId) -> Option<&'a Node> {
        self.mc.nodes.get(&id).copied()
    }

    fn decl_ref(&mut self, e: &'a Node) -> R<Value> {
        let Some(d) = &e.referenced_decl else {
            return self.err(e, "reference to an unknown declaration");
        };
        if let Some((st, _)) = self.vars.get(&d.id).cloned() {
            return Ok(match st {
                Storage::Addr(a) => a,
                Storage::Ref(slot) => {
                    let gp = self.mc.generic_ptr();
                    self.b().load(slot, gp)
                }
                Storage::Global(g, sp) => self.b().global_addr(g, sp),
                Storage::DynShared => self.b().dynamic_shared(),
            });
        }
        if let Some(v) = self.captured(d.id, e)? {
            return Ok(v);
        }
        if d.kind.is_function() {
            // `&f`: the function's pointer.
            return self.fn_ptr(d.id, e);
        }
        let Some(node) = self.var_decl_node(d.id) else {
            if d.kind == Kind::VarDecl && self.mc.lambdas.contains_key(&self.decl.id) {
                // clang does not dump an init-capture's variable.
                return self.err(
                    e,
                    format!(
                        "init-captures such as '{}' in `[{} = ...]` are not supported in device code",
                        d.name.as_deref().unwrap_or("?"),
                        d.name.as_deref().unwrap_or("?")
                    ),
                );
            }
            return self.err(
                e,
                format!(
                    "'{}' is not available in device code",
                    d.name.as_deref().unwrap_or("?")
                ),
            );
        };
        if !node.kind.is_variable() {
            return self.err(
                e,
                format!(
                    "'{}' cannot be used as an object",
                    d.name.as_deref().unwrap_or("?")
                ),
            );
        }
        if let Some(v) = self.builtin_var_whole(e, node)? {
            return Ok(v);
        }
        if node.has_attr(&Kind::CUDASharedAttr) && node.storage_class.as_deref() == Some("extern") {
            return Ok(self.b().dynamic_shared());
        }
        let g = self.mc.global_for(node)?;
        let sp = self.mc.module.globals[g].space;
        let ct = self.ty_of(node)?;
        if ct.is_ref() {
            return self.err(e, "global references are not supported in device code");
        }
        Ok(self.b().global_addr(g, sp))
    }

    fn member(&mut self, e: &'a Node) -> R<Value> {
        let base = child(e, 0)?;
        let Some(fid) = e.referenced_member_decl else {
            return self.err(e, "member of an unknown record");
        };
        let decl = self.mc.nodes.get(&fid).copied();
        if let Some(d) = decl {
            if d.kind.is_variable() {
                // A static data member.
                self.discard(base).ok();
                let g = self.mc.global_for(d)?;
                let sp = self.mc.module.globals[g].space;
                return Ok(self.b().global_addr(g, sp));
            }
            if d.kind.is_function() {
                return self.err(e, "member function used as an object");
            }
        }
        let obj_ty = self.ty_of(base)?;
        let obj_ty = if e.is_arrow {
            obj_ty.pointee().cloned().unwrap_or(CType::Void)
        } else {
            obj_ty
        };
        let addr = if e.is_arrow {
            self.scalar(base)?
        } else {
            self.materialise(base)?
        };
        if super::ModCx::is_half_like(&obj_ty).is_some() {
            // `__half::__x`: the bits are the value's storage.
            return Ok(addr);
        }
        let (l, idx, fct) = self.mc.field(fid, e)?;
        let p = self.b().ptr_field(addr, l.ty, idx);
        if fct.is_ref() {
            let gp = self.mc.generic_ptr();
            return Ok(self.b().load(p, gp));
        }
        Ok(p)
    }

    fn subscript(&mut self, e: &'a Node) -> R<Value> {
        let (a, i) = (child(e, 0)?, child(e, 1)?);
        let at = self.ty_of(a)?;
        let (base_n, idx_n) = if at.is_ptr() || at.elem().is_some() {
            (a, i)
        } else {
            (i, a)
        };
        let base = {
            let s = base_n;
            if s.kind == Kind::ImplicitCastExpr
                && s.cast_kind.as_deref() == Some("ArrayToPointerDecay")
            {
                self.lvalue(child(s, 0)?)?
            } else {
                self.scalar(s)?
            }
        };
        let ict = self.ty_of(idx_n)?;
        let iv = self.scalar(idx_n)?;
        let iv = self.index64(iv, &ict);
        let ect = self.ty_of(e)?;
        let et = self.mc.mem_ty(&ect, e)?;
        Ok(self.b().ptr_index(base, iv, et))
    }

    /// An index as `i64` (zero-extended if unsigned).
    pub fn index64(&mut self, v: Value, ct: &CType) -> Value {
        let t = self.func.value_type(v);
        let bits = self.mc.module.types[t].int_bits().unwrap_or(64);
        if bits == 64 {
            return v;
        }
        let i64t = self.mc.module.types.i64();
        let op = if ct.is_signed() && bits > 1 {
            CastOp::SExt
        } else {
            CastOp::ZExt
        };
        self.b().cast(op, v, i64t)
    }

    fn inc_dec(&mut self, addr: Value, ct: &CType, inc: bool, at: &Node) -> R<(Value, Value)> {
        let old = self.load(addr, ct, at)?;
        let t = self.func.value_type(old);
        let ty = self.mc.module.types[t].clone();
        let new = match ty {
            Type::Int(1) => self.b().bool(inc),
            Type::Int(_) => {
                let flags = self.signed_flags(ct, t);
                let mut b = self.b();
                let one = b.const_int(t, 1);
                b.binary_flags(if inc { BinOp::Add } else { BinOp::Sub }, flags, old, one)
            }
            Type::Float(_) => {
                let mut b = self.b();
                let one = b.const_float(t, 1.0);
                b.binary(if inc { BinOp::FAdd } else { BinOp::FSub }, old, one)
            }
            Type::Ptr(_) => {
                let pt = ct.pointee().cloned().unwrap_or(CType::Void);
                let et = self.mc.mem_ty(&pt, at)?;
                let mut b = self.b();
                let d = b.i64(if inc { 1 } else { -1 });
                b.ptr_index(old, d, et)
            }
            _ => return self.err(at, "increment of a non-scalar"),
        };
        self.store(addr, new, ct);
        Ok((old, new))
    }

    fn unary(&mut self, e: &'a Node, ct: &CType) -> R<RV> {
        let op = e.opcode.as_deref().unwrap_or("");
        let c = child(e, 0)?;
        match op {
            "++" | "--" => {
                let addr = self.lvalue(c)?;
                let cct = self.ty_of(c)?;
                let (old, new) = self.inc_dec(addr, &cct, op == "++", e)?;
                Ok(RV::Scalar(if e.is_postfix { old } else { new }))
            }
            "&" => {
                let a = self.lvalue(c)?;
                Ok(RV::Scalar(self.to_generic(a)))
            }
            "*" => {
                let p = self.scalar(c)?;
                if self.mc.scalar_ty(ct).is_some() {
                    Ok(RV::Scalar(self.load(p, ct, e)?))
                } else {
                    Ok(RV::Agg(p))
                }
            }
            "+" | "__extension__" => self.rvalue(c),
            "-" => {
                let v = self.scalar(c)?;
                let t = self.func.value_type(v);
                let flags = self.signed_flags(ct, t);
                let mut b = self.b();
                Ok(RV::Scalar(if b.types[t].is_float() {
                    b.unary(UnOp::FNeg, v)
                } else {
                    let z = b.const_int(t, 0);
                    b.binary_flags(BinOp::Sub, flags, z, v)
                }))
            }
            "~" => {
                let v = self.scalar(c)?;
                let t = self.func.value_type(v);
                let mut b = self.b();
                let m = b.const_int(t, -1);
                Ok(RV::Scalar(b.binary(BinOp::Xor, v, m)))
            }
            "!" => {
                let cct = self.ty_of(c)?;
                let v = self.scalar(c)?;
                let v = self.to_bool(v, &cct, e)?;
                let mut b = self.b();
                let t = b.bool(true);
                let r = b.binary(BinOp::Xor, v, t);
                let bool_t = CType::Bool;
                Ok(RV::Scalar(self.convert(r, &bool_t, ct, e)?))
            }
            _ => self.err(
                e,
                format!("operator '{op}' is not supported in device code"),
            ),
        }
    }

    /// `a OP b` on scalars of C types `lt` (both operands after clang's
    /// conversions, except shifts).
    pub fn arith(&mut self, op: &str, a: Value, b: Value, lt: &CType, at: &Node) -> R<Value> {
        let t = self.func.value_type(a);
        let is_float = self.mc.module.types[t].is_float();
        let signed = lt.is_signed();
        // Shift amounts take the left operand's type.
        let b = if matches!(op, "<<" | ">>") {
            let bt = self.func.value_type(b);
            if bt != t {
                let from = CType::int(self.mc.module.types[bt].int_bits().unwrap_or(32), false);
                self.convert(b, &from, &self.mc.resolve(lt), at)?
            } else {
                b
            }
        } else {
            b
        };
        let bop = match (op, is_float) {
            ("+", false) => BinOp::Add,
            ("-", false) => BinOp::Sub,
            ("*", false) => BinOp::Mul,
            ("/", false) if signed => BinOp::SDiv,
            ("/", false) => BinOp::UDiv,
            ("%", false) if signed => BinOp::SRem,
            ("%", false) => BinOp::URem,
            ("&", false) => BinOp::And,
            ("|", false) => BinOp::Or,
            ("^", false) => BinOp::Xor,
            ("<<", false) => BinOp::Shl,
            (">>", false) if signed => BinOp::AShr,
            (">>", false) => BinOp::LShr,
            ("+", true) => BinOp::FAdd,
            ("-", true) => BinOp::FSub,
            ("*", true) => BinOp::FMul,
            ("/", true) => BinOp::FDiv,
            _ => {
                return self.err(
                    at,
                    format!("operator '{op}' is not supported on these operands"),
                )
            }
        };
        let flags = if bop.takes_nsw() {
            self.signed_flags(lt, t)
        } else {
            ArithFlags::NONE
        };
        Ok(self.b().binary_flags(bop, flags, a, b))
    }

    /// `nsw` for `+`, `-`, `*` (and `++`, `--`, unary `-`) computed in C
    /// type `ct` held in IR type `t`: signed overflow is undefined in C++
    /// for `int` and wider. Narrower types are promoted to `int` by C, so an
    /// IR op narrower than `int` stands for an `int` op followed by a
    /// truncation, which wraps: it gets no flag.
    fn signed_flags(&self, ct: &CType, t: TypeId) -> ArithFlags {
        let bits = self.mc.module.types[t].int_bits();
        match self.mc.resolve(ct).strip() {
            CType::Int {
                bits: cbits,
                signed: true,
            } if *cbits >= 32 && bits == Some(*cbits) => ArithFlags::NSW,
            _ => ArithFlags::NONE,
        }
    }

    fn compare(&mut self, op: &str, a: Value, b: Value, lt: &CType, at: &Node) -> R<Value> {
        let t = self.func.value_type(a);
        let is_float = self.mc.module.types[t].is_float();
        let signed = lt.is_signed();
        let p = match (op, is_float, signed) {
            ("==", false, _) => CmpPred::Eq,
            ("!=", false, _) => CmpPred::Ne,
            ("<", false, true) => CmpPred::Slt,
            ("<=", false, true) => CmpPred::Sle,
            (">", false, true) => CmpPred::Sgt,
            (">=", false, true) => CmpPred::Sge,
            ("<", false, false) => CmpPred::Ult,
            ("<=", false, false) => CmpPred::Ule,
            (">", false, false) => CmpPred::Ugt,
            (">=", false, false) => CmpPred::Uge,
            ("==", true, _) => CmpPred::FOeq,
            ("!=", true, _) => CmpPred::FUne,
            ("<", true, _) => CmpPred::FOlt,
            ("<=", true, _) => CmpPred::FOle,
            (">", true, _) => CmpPred::FOgt,
            (">=", true, _) => CmpPred::FOge,
            _ => return self.err(at, format!("comparison '{op}' is not supported")),
        };
        let b = if self.mc.module.types[t].is_ptr() {
            self.to_generic(b)
        } else {
            b
        };
        let a = if self.mc.module.types[t].is_ptr() {
            self.to_generic(a)
        } else {
            a
        };
        Ok(self.b().cmp(p, a, b))
    }

    fn binary(&mut self, e: &'a Node, ct: &CType) -> R<RV> {
        let op = e.opcode.as_deref().unwrap_or("");
        let (l, r) = (child(e, 0)?, child(e, 1)?);
        match op {
            "," => {
                self.discard(l)?;
                return self.rvalue(r);
            }
            "&&" | "||" => {
                let a = self.cond(l)?;
                let i1 = self.mc.module.types.i1();
                let (opx, t, f) = self.b().create_if(a, &[i1]);
                let saved = self.cur;
                let (eval_r, short) = if op == "&&" { (t, f) } else { (f, t) };
                self.cur = eval_r;
                let bv = self.cond(r)?;
                self.b().yield_(vec![bv]);
                self.cur = short;
                let k = self.b().bool(op == "||");
                self.b().yield_(vec![k]);
                self.cur = saved;
                let res = self.func.ops[opx].results[0];
                return Ok(RV::Scalar(self.convert(res, &CType::Bool, ct, e)?));
            }
            "=" => {
                let a = self.lvalue(e)?;
                let lt = self.ty_of(l)?;
                return Ok(if self.mc.scalar_ty(&lt).is_some() {
                    RV::Scalar(self.load(a, &lt, e)?)
                } else {
                    RV::Agg(a)
                });
            }
            _ => {}
        }
        let lt = self.mc.resolve(&self.ty_of(l)?);
        let rt = self.mc.resolve(&self.ty_of(r)?);
        let a = self.scalar(l)?;
        let b = self.scalar(r)?;
        // Pointer arithmetic.
        if lt.is_ptr() || rt.is_ptr() {
            match op {
                "+" | "-" if lt.is_ptr() && !rt.is_ptr() => {
                    return Ok(RV::Scalar(self.ptr_add(a, &lt, b, &rt, op == "-", e)?));
                }
                "+" if rt.is_ptr() => {
                    return Ok(RV::Scalar(self.ptr_add(b, &rt, a, &lt, false, e)?))
                }
                "-" => {
                    let pt = lt.pointee().cloned().unwrap_or(CType::Void);
                    let et = self.mc.mem_ty(&pt, e)?;
                    let size = self.mc.module.types.size_of(et).max(1) as i64;
                    let i64t = self.mc.module.types.i64();
                    let a = self.to_generic(a);
                    let b = self.to_generic(b);
                    let mut bb = self.b();
                    let ai = bb.cast(CastOp::PtrToInt, a, i64t);
                    let bi = bb.cast(CastOp::PtrToInt, b, i64t);
                    let d = bb.binary(BinOp::Sub, ai, bi);
                    let s = bb.i64(size);
                    let q = bb.binary(BinOp::SDiv, d, s);
                    let long = CType::int(64, true);
                    return Ok(RV::Scalar(self.convert(q, &long, ct, e)?));
                }
                _ => {}
            }
        }
        match op {
            "==" | "!=" | "<" | "<=" | ">" | ">=" => {
                let c = self.compare(op, a, b, &lt, e)?;
                Ok(RV::Scalar(self.convert(c, &CType::Bool, ct, e)?))
            }
            _ => Ok(RV::Scalar(self.arith(op, a, b, &lt, e)?)),
        }
    }

    fn ptr_add(
        &mut self,
        p: Value,
        pt: &CType,
        i: Value,
        it: &CType,
        neg: bool,
        at: &Node,
    ) -> R<Value> {
        let pointee = pt.pointee().cloned().unwrap_or(CType::Void);
        let et = self.mc.mem_ty(&pointee, at)?;
        let mut iv = self.index64(i, it);
        if neg {
            let mut b = self.b();
            let z = b.i64(0);
            iv = b.binary(BinOp::Sub, z, iv);
        }
        Ok(self.b().ptr_index(p, iv, et))
    }

    fn compound_assign(&mut self, e: &'a Node) -> R<Value> {
        let op = e
            .opcode
            .as_deref()
            .unwrap_or("")
            .trim_end_matches('=')
            .to_string();
        let (l, r) = (child(e, 0)?, child(e, 1)?);
        let lt = self.ty_of(l)?;
        let read = |k: &str| -> Option<CType> {
            let raw = e.extra(k)?;
            let q: crate::ast::QualType = serde_json::from_str(raw.get()).ok()?;
            super::ctype::parse(q.canonical())
        };
        let comp = read("computeLHSType").unwrap_or_else(|| lt.clone());
        let comp = self.mc.resolve(&comp);
        let rt = self.mc.resolve(&self.ty_of(r)?);
        let rv = self.scalar(r)?;
        let addr = self.lvalue(l)?;
        let old = self.load(addr, &lt, e)?;
        let new = if comp.is_ptr() {
            self.ptr_add(old, &comp, rv, &rt, op == "-", e)?
        } else {
            let oc = self.convert(old, &lt, &comp, e)?;
            let res = self.arith(&op, oc, rv, &comp, e)?;
            self.convert(res, &comp, &lt, e)?
        };
        self.store(addr, new, &lt);
        Ok(addr)
    }

    fn conditional(&mut self, e: &'a Node, ct: &CType) -> R<RV> {
        let c = self.cond(child(e, 0)?)?;
        let saved = self.cur;
        if *ct.strip() == CType::Void {
            let (_, t, f) = self.b().create_if(c, &[]);
            for (r, k) in [(t, 1), (f, 2)] {
                self.cur = r;
                self.discard(child(e, k)?)?;
                self.b().yield_(vec![]);
            }
            self.cur = saved;
            return Ok(RV::Void);
        }
        if let Some(st) = self.mc.scalar_ty(ct) {
            let (op, t, f) = self.b().create_if(c, &[st]);
            for (r, k) in [(t, 1), (f, 2)] {
                self.cur = r;
                let v = self.scalar(child(e, k)?)?;
                let v = self.to_generic(v);
                self.b().yield_(vec![v]);
            }
            self.cur = saved;
            return Ok(RV::Scalar(self.func.ops[op].results[0]));
        }
        let tmp = self.temp(ct, e)?;
        let (_, t, f) = self.b().create_if(c, &[]);
        for (r, k) in [(t, 1), (f, 2)] {
            self.cur = r;
            self.agg_into(child(e, k)?, tmp)?;
            self.b().yield_(vec![]);
        }
        self.cur = saved;
        Ok(RV::Agg(tmp))
    }

    /// Copies `size_of(ct)` bytes.
    pub fn copy(&mut self, dst: Value, src: Value, ct: &CType, at: &Node) -> R<()> {
        let t = self.mc.mem_ty(ct, at)?;
        let n = self.mc.module.types.size_of(t) as i64;
        let mut b = self.b();
        let len = b.i64(n);
        b.memcpy(dst, src, len);
        Ok(())
    }

    /// Zero-fills an object of type `ct`.
    pub fn zero(&mut self, dst: Value, ct: &CType, at: &Node) -> R<()> {
        let t = self.mc.mem_ty(ct, at)?;
        let n = self.mc.module.types.size_of(t) as i64;
        let mut b = self.b();
        let len = b.i64(n);
        let z = b.types.i8();
        let zero = b.const_int(z, 0);
        b.memset(dst, zero, len);
        Ok(())
    }

    /// Initialises the aggregate (or half value) at `dst` from `e`.
    pub fn agg_into(&mut self, e: &'a Node, dst: Value) -> R<()> {
        self.at(e);
        let ct = self.ty_of(e)?;
        match &e.kind {
            Kind::ParenExpr
            | Kind::ExprWithCleanups
            | Kind::CXXBindTemporaryExpr
            | Kind::ConstantExpr => return self.agg_into(child(e, 0)?, dst),
            Kind::MaterializeTemporaryExpr
                if e.inner
                    .first()
                    .is_some_and(|c| c.value_category == Some(ValueCategory::PRValue)) =>
            {
                return self.agg_into(child(e, 0)?, dst)
            }
            Kind::ImplicitCastExpr
            | Kind::CXXFunctionalCastExpr
            | Kind::CStyleCastExpr
            | Kind::CXXStaticCastExpr
                if matches!(
                    e.cast_kind.as_deref(),
                    Some("NoOp" | "ConstructorConversion" | "UserDefinedConversion")
                ) && self.mc.scalar_ty(&ct).is_none() =>
            {
                return self.agg_into(child(e, 0)?, dst)
            }
            Kind::ImplicitValueInitExpr => return self.zero(dst, &ct, e),
            Kind::InitListExpr => return self.init_list(e, dst, &ct),
            Kind::LambdaExpr => return self.lambda_into(e, dst),
            Kind::CXXConstructExpr | Kind::CXXTemporaryObjectExpr => {
                return self.construct(e, dst, &ct)
            }
            Kind::CallExpr | Kind::CXXMemberCallExpr | Kind::CXXOperatorCallExpr
                if self.mc.scalar_ty(&ct).is_none()
                    && e.value_category == Some(ValueCategory::PRValue) =>
            {
                self.call(e, Some(dst))?;
                return Ok(());
            }
            Kind::StringLiteral => {
                let src = self.lvalue(e)?;
                return self.copy(dst, src, &ct, e);
            }
            _ => {}
        }
        match self.rvalue(e)? {
            RV::Agg(p) => self.copy(dst, p, &ct, e),
            RV::Scalar(v) => {
                self.store(dst, v, &ct);
                Ok(())
            }
            RV::Void => self.err(e, "void value used as an object"),
        }
    }

    fn init_list(&mut self, e: &'a Node, dst: Value, ct: &CType) -> R<()> {
        let (filler, items): (Option<&'a Node>, Vec<&'a Node>) = if e.array_filler.is_empty() {
            (None, e.inner.iter().collect())
        } else {
            (
                e.array_filler.first(),
                e.array_filler[1..].iter().chain(e.inner.iter()).collect(),
            )
        };
        match self.mc.resolve(ct) {
            CType::Array(el, n) => {
                let et = self.mc.mem_ty(&el, e)?;
                let n = n.unwrap_or(items.len() as u64);
                if let Some(f) = filler {
                    if f.kind == Kind::ImplicitValueInitExpr || n > items.len() as u64 + 64 {
                        if f.kind != Kind::ImplicitValueInitExpr {
                            return self.err(f, "array initialiser too large to expand");
                        }
                        self.zero(dst, ct, e)?;
                    } else {
                        for i in items.len() as u64..n {
                            let iv = self.b().i64(i as i64);
                            let p = self.b().ptr_index(dst, iv, et);
                            self.init_into(f, p, &el, None)?;
                        }
                    }
                }
                if items.len() == 1 && items[0].kind == Kind::StringLiteral {
                    return self.agg_into(items[0], dst);
                }
                for (i, it) in items.iter().enumerate() {
                    let iv = self.b().i64(i as i64);
                    let p = self.b().ptr_index(dst, iv, et);
                    self.init_into(it, p, &el, None)?;
                }
                Ok(())
            }
            CType::Named(name) => {
                let decl = self
                    .mc
                    .record_decl(&name)
                    .ok_or_else(|| Diagnostic::at(e, format!("unknown type '{name}'")))?;
                let l = self.mc.layout(&name, e)?;
                let mut fields: Vec<&'a Node> = decl
                    .inner
                    .iter()
                    .filter(|c| c.kind == Kind::FieldDecl)
                    .collect();
                if decl.tag_used.as_deref() == Some("union") {
                    #[derive(serde::Deserialize)]
                    struct F {
                        id: NodeId,
                    }
                    if let Some(f) = e
                        .extra("field")
                        .and_then(|r| serde_json::from_str::<F>(r.get()).ok())
                    {
                        fields.retain(|x| x.id == f.id);
                    }
                    self.zero(dst, ct, e)?;
                }
                let nb = l.bases.len();
                if items.len() < nb + fields.len() {
                    self.zero(dst, ct, e)?;
                }
                for (k, it) in items.iter().enumerate() {
                    if k < nb {
                        let (_, bi) = l.bases[k].clone();
                        let p = self.b().ptr_field(dst, l.ty, bi);
                        self.agg_into(it, p)?;
                        continue;
                    }
                    let Some(f) = fields.get(k - nb) else {
                        return self.err(it, "too many initialisers");
                    };
                    let (idx, fct) = l
                        .fields
                        .get(&f.id)
                        .cloned()
                        .ok_or_else(|| Diagnostic::at(it, "unknown field"))?;
                    let p = self.b().ptr_field(dst, l.ty, idx);
                    let it = if it.kind == Kind::CXXDefaultInitExpr {
                        f.inner
                            .iter()
                            .find(|c| c.value_category.is_some())
                            .unwrap_or(it)
                    } else {
                        it
                    };
                    self.init_into(it, p, &fct, Some(f.id))?;
                }
                Ok(())
            }
            t if self.mc.scalar_ty(&t).is_some() => {
                match items.first() {
                    Some(it) => self.init_into(it, dst, &t, None)?,
                    None => self.zero(dst, &t, e)?,
                }
                Ok(())
            }
            _ => self.err(e, "unsupported initialiser list"),
        }
    }

    fn construct(&mut self, e: &'a Node, dst: Value, ct: &CType) -> R<()> {
        let args: Vec<&'a Node> = e.inner.iter().collect();
        if e.extra("zeroing").is_some_and(|v| v.get() == "true") {
            self.zero(dst, ct, e)?;
        }
        if e.extra("elidable").is_some_and(|v| v.get() == "true") && args.len() == 1 {
            return self.agg_into(args[0], dst);
        }
        // A temporary bound to a `const T &` parameter is spelled `const T`.
        let name =
            e.ty.as_ref()
                .map(|q| strip_cv(q.canonical()).to_string())
                .unwrap_or_default();
        let ctor_ty = e
            .extra("ctorType")
            .and_then(|r| serde_json::from_str::<crate::ast::QualType>(r.get()).ok())
            .map(|q| q.qual_type)
            .unwrap_or_default();
        let decl = self.mc.record_decl(&name);
        let mut ctors: Vec<&'a Node> = Vec::new();
        if let Some(d) = decl {
            for m in &d.inner {
                if m.kind == Kind::CXXConstructorDecl {
                    ctors.push(m);
                }
                if m.kind == Kind::FunctionTemplateDecl {
                    ctors.extend(
                        m.inner
                            .iter()
                            .filter(|f| f.kind == Kind::CXXConstructorDecl)
                            .skip(1),
                    );
                }
            }
        }
        let ctor = ctors
            .iter()
            .copied()
            .find(|c| c.ty.as_ref().is_some_and(|q| q.qual_type == ctor_ty));
        let params: Vec<&'a Node> = ctor
            .map(|c| {
                c.inner
                    .iter()
                    .filter(|p| p.kind == Kind::ParmVarDecl)
                    .collect()
            })
            .unwrap_or_default();
        let is_copy = args.len() == 1
            && self
                .ty_of(args[0])
                .map(|t| {
                    let t = match t.strip() {
                        CType::Ref(x) => (**x).clone(),
                        x => x.clone(),
                    };
                    self.mc.resolve(&t) == self.mc.resolve(ct)
                })
                .unwrap_or(false);
        let defaulted =
            ctor.is_none_or(|c| c.is_implicit || c.extra("explicitlyDefaulted").is_some());
        if is_copy && defaulted && params.len() <= 1 {
            // Trivial copy or move: bytes.
            if self.mc.scalar_ty(ct).is_some() {
                let v = self.scalar(args[0])?;
                self.store(dst, v, ct);
                return Ok(());
            }
            let src = self.materialise(args[0])?;
            return self.copy(dst, src, ct, e);
        }
        let Some(ctor) = ctor else {
            if args.is_empty() {
                return Ok(());
            }
            return self.err(e, format!("no constructor of '{name}' matches '{ctor_ty}'"));
        };
        let Some(def) = self.mc.definition(ctor) else {
            if args.is_empty() && defaulted {
                return Ok(());
            }
            return self.err(
                e,
                format!("constructor of '{name}' has no definition in device code"),
            );
        };
        self.call_function(e, ctor, def, Some(dst), None, &args)?;
        Ok(())
    }

    /// Records a call-graph edge for recursion checks.
    pub fn note_call(&mut self, callee: cucc_ir::FuncId, at: &Node) {
        let loc = self.loc;
        self.mc.calls.push((self.fid, callee, loc, DiagLoc::of(at)));
    }
}

/// A type spelling without leading `const`/`volatile` qualifiers.
fn strip_cv(mut s: &str) -> &str {
    loop {
        let t = s
            .strip_prefix("const ")
            .or_else(|| s.strip_prefix("volatile "));
        match t {
            Some(t) => s = t,
            None => return s,
        }
    }
}
