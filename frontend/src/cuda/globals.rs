//! Module globals: `__device__`, `__constant__` and static `__shared__`
//! variables, legacy texture references and string literals, with
//! initialisers evaluated to bytes.

use cucc_ir::{FloatKind, Global, GlobalId, GlobalKind, Linkage, Space};

use super::ctype::{self, CType};
use super::diag::Diagnostic;
use super::expr::string_of;
use super::records::parse_int_text;
use super::ModCx;
use crate::ast::{Kind, LiteralValue, Node};

fn is_texture(n: &Node) -> bool {
    n.ty.as_ref().is_some_and(|q| {
        q.canonical()
            .trim_start_matches("struct ")
            .starts_with("texture<")
    })
}

impl<'a> ModCx<'a> {
    /// Declares the file-scope device variables of the main file and the
    /// headers, in order (lazily for the rest).
    pub fn declare_globals(&mut self) {
        let decls: Vec<&'a Node> = self.tu.decls.iter().collect();
        let mut stack = decls;
        let mut found = Vec::new();
        while let Some(n) = stack.pop() {
            match n.kind {
                Kind::NamespaceDecl | Kind::LinkageSpecDecl => stack.extend(n.inner.iter()),
                Kind::VarDecl | Kind::VarTemplateSpecializationDecl
                    if (n.has_attr(&Kind::CUDADeviceAttr)
                        || n.has_attr(&Kind::CUDAConstantAttr)
                        || is_texture(n))
                        && n.storage_class.as_deref() != Some("extern") =>
                {
                    found.push(n)
                }
                _ => {}
            }
        }
        found.sort_by_key(|n| {
            n.user_loc()
                .map(|l| (l.file().to_string(), l.expansion.offset))
        });
        for n in found {
            // Only variables of the main file are declared eagerly.
            let main = self.module.files.first().cloned().unwrap_or_default();
            if n.user_loc().is_some_and(|l| l.file() == main) {
                if let Err(e) = self.global_for(n) {
                    self.errors.push(e);
                }
            }
        }
    }

    /// The global for a variable declaration, created on first use.
    pub fn global_for(&mut self, d: &'a Node) -> Result<GlobalId, Diagnostic> {
        if let Some(g) = self.globals.get(&d.id) {
            return Ok(*g);
        }
        let loc = self.loc(d);
        let name = d
            .mangled_name
            .clone()
            .or_else(|| d.name.clone())
            .unwrap_or_default();
        let spelled =
            d.ty.as_ref()
                .map(|q| q.canonical().to_string())
                .unwrap_or_default();
        if is_texture(d) {
            let (elem, dims) = texture_params(&spelled).ok_or_else(|| {
                Diagnostic::at(d, format!("cannot read the texture type '{spelled}'"))
            })?;
            let ty = self
                .scalar_ty(&elem)
                .or_else(|| self.vector_elem(&elem, d).ok().map(|(t, _, _)| t))
                .ok_or_else(|| Diagnostic::at(d, "unsupported texture element type"))?;
            let g = self.module.add_global(Global {
                kind: GlobalKind::Texture { dims },
                loc,
                ..Global::new(name, ty, Space::Global)
            });
            self.globals.insert(d.id, g);
            return Ok(g);
        }
        let mut ct =
            ctype::parse(&spelled).ok_or_else(|| Diagnostic::at(d, ctype::unreadable(&spelled)))?;
        let init = d.inner.iter().find(|c| c.value_category.is_some());
        if let (CType::Array(el, None), Some(i)) = (ct.clone(), init) {
            if let Some(CType::Array(_, Some(n))) =
                i.ty.as_ref().and_then(|q| ctype::parse(q.canonical()))
            {
                ct = CType::Array(el, Some(n));
            }
        }
        let ty = self.mem_ty(&ct, d)?;
        let space = if d.has_attr(&Kind::CUDASharedAttr) {
            Space::Shared
        } else if d.has_attr(&Kind::CUDAConstantAttr) {
            Space::Constant
        } else {
            Space::Global
        };
        let init = match (init, space) {
            (Some(_), Space::Shared) => None,
            (Some(e), _) => {
                let size = self.module.types.size_of(ty) as usize;
                let mut bytes = vec![0u8; size];
                self.eval_into(e, &ct, &mut bytes, 0)?;
                Some(bytes)
            }
            (None, _) => None,
        };
        // cucc's headers spell `__managed__` as a device variable with the
        // one `annotate` attribute they use (clang knows `managed` only for HIP).
        let managed = space == Space::Global && d.has_attr(&Kind::AnnotateAttr);
        // Separate compilation: `extern` declarations are another unit's
        // variables; the others are visible to other units unless internal.
        let linkage = if !self.relocatable || space == Space::Shared {
            Linkage::Internal
        } else if d.storage_class.as_deref() == Some("extern") && init.is_none() {
            Linkage::Import
        } else if d.storage_class.as_deref() == Some("static")
            || cucc_ir::link::is_internal_name(&name)
        {
            Linkage::Internal
        } else {
            Linkage::External
        };
        let g = self.module.add_global(Global {
            name,
            ty,
            space,
            init,
            kind: GlobalKind::Variable,
            managed,
            linkage,
            loc,
        });
        self.globals.insert(d.id, g);
        Ok(g)
    }

    /// A constant global holding a string literal's bytes.
    pub fn string_global(
        &mut self,
        mut bytes: Vec<u8>,
        ct: &CType,
        at: &Node,
    ) -> Result<GlobalId, Diagnostic> {
        let len = match ct.strip() {
            CType::Array(_, Some(n)) => *n as usize,
            _ => bytes.len() + 1,
        };
        bytes.resize(len, 0);
        if let Some(g) = self.strings.get(&bytes) {
            return Ok(*g);
        }
        let i8t = self.module.types.i8();
        let ty = self.module.types.array(i8t, len as u64);
        let name = format!(".str.{}", self.strings.len());
        let loc = self.loc(at);
        let g = self.module.add_global(Global {
            init: Some(bytes.clone()),
            loc,
            ..Global::new(name, ty, Space::Constant)
        });
        self.strings.insert(bytes, g);
        Ok(g)
    }

    /// The component type, count and struct of a CUDA vector type (`float4`).
    pub fn vector_elem(
        &mut self,
        ct: &CType,
        at: &Node,
    ) -> Result<(cucc_ir::TypeId, usize, cucc_ir::TypeId), Diagnostic> {
        let CType::Named(name) = ct.strip() else {
            return Err(Diagnostic::at(at, "not a vector type"));
        };
        let l = self.layout(name, at)?;
        let cucc_ir::Type::Struct(s) = &self.module.types[l.ty] else {
            return Err(Diagnostic::at(at, "not a vector type"));
        };
        let first = s
            .fields
            .first()
            .map(|f| f.ty)
            .ok_or_else(|| Diagnostic::at(at, "empty vector type"))?;
        Ok((first, s.fields.len(), l.ty))
    }

    /// Evaluates a constant initialiser into `out[off..]`.
    pub fn eval_into(
        &mut self,
        e: &'a Node,
        ct: &CType,
        out: &mut [u8],
        off: usize,
    ) -> Result<(), Diagnostic> {
        let ct = self.resolve(ct);
        let not_const = || {
            Diagnostic::at(
                e,
                "initialiser of a device variable is not a constant expression cucc can evaluate",
            )
        };
        match e.kind {
            Kind::ParenExpr | Kind::ExprWithCleanups | Kind::ConstantExpr
                if !matches!(&e.value, Some(LiteralValue::Text(_))) =>
            {
                let c = e.inner.first().ok_or_else(not_const)?;
                return self.eval_into(c, &ct, out, off);
            }
            Kind::ImplicitValueInitExpr => return Ok(()),
            Kind::InitListExpr => {
                let (filler, items): (Option<&Node>, Vec<&'a Node>) = if e.array_filler.is_empty() {
                    (None, e.inner.iter().collect())
                } else {
                    (
                        e.array_filler.first(),
                        e.array_filler[1..].iter().chain(e.inner.iter()).collect(),
                    )
                };
                match &ct {
                    CType::Array(el, n) => {
                        let et = self.mem_ty(el, e)?;
                        let es = self.module.types.size_of(et) as usize;
                        if let Some(f) = filler {
                            if f.kind != Kind::ImplicitValueInitExpr {
                                for i in items.len()..n.unwrap_or(0) as usize {
                                    let f: &'a Node =
                                        e.array_filler.first().ok_or_else(not_const)?;
                                    self.eval_into(f, el, out, off + i * es)?;
                                }
                            }
                        }
                        if items.len() == 1 && items[0].kind == Kind::StringLiteral {
                            return self.eval_into(items[0], &ct, out, off);
                        }
                        for (i, it) in items.iter().enumerate() {
                            self.eval_into(it, el, out, off + i * es)?;
                        }
                        return Ok(());
                    }
                    CType::Named(name) => {
                        let decl = self.record_decl(name).ok_or_else(not_const)?;
                        let l = self.layout(name, e)?;
                        let offsets: Vec<u64> = match &self.module.types[l.ty] {
                            cucc_ir::Type::Struct(s) => s.fields.iter().map(|f| f.offset).collect(),
                            _ => vec![],
                        };
                        let fields: Vec<&'a Node> = decl
                            .inner
                            .iter()
                            .filter(|c| c.kind == Kind::FieldDecl)
                            .collect();
                        for (k, it) in items.iter().enumerate() {
                            let f = fields.get(k).ok_or_else(not_const)?;
                            let (idx, fct) = l.fields.get(&f.id).cloned().ok_or_else(not_const)?;
                            let o = offsets.get(idx as usize).copied().unwrap_or(0) as usize;
                            let it: &'a Node = if it.kind == Kind::CXXDefaultInitExpr {
                                f.inner
                                    .iter()
                                    .find(|c| c.value_category.is_some())
                                    .ok_or_else(not_const)?
                            } else {
                                it
                            };
                            self.eval_into(it, &fct, out, off + o)?;
                        }
                        return Ok(());
                    }
                    _ => {
                        if let Some(it) = items.first() {
                            return self.eval_into(it, &ct, out, off);
                        }
                        return Ok(());
                    }
                }
            }
            Kind::StringLiteral => {
                let b = string_of(e).ok_or_else(not_const)?;
                for (i, x) in b.iter().enumerate() {
                    if let Some(slot) = out.get_mut(off + i) {
                        *slot = *x;
                    }
                }
                return Ok(());
            }
            Kind::CXXConstructExpr if e.inner.len() == 1 => {
                return self.eval_into(&e.inner[0], &ct, out, off);
            }
            Kind::CXXConstructExpr if e.inner.is_empty() => return Ok(()),
            _ => {}
        }
        // A scalar.
        let v = self.eval_scalar(e).ok_or_else(not_const)?;
        let bytes: Vec<u8> = match &ct {
            CType::Bool => vec![u8::from(v.as_f64() != 0.0)],
            CType::Int { bits, .. } => {
                let x = v.as_i64().to_le_bytes();
                x[..(*bits as usize / 8).max(1)].to_vec()
            }
            CType::Float(FloatKind::F32) => (v.as_f64() as f32).to_le_bytes().to_vec(),
            CType::Float(FloatKind::F64) => v.as_f64().to_le_bytes().to_vec(),
            CType::Float(FloatKind::F16) => cucc_ir::float::f64_to_f16(v.as_f64())
                .to_le_bytes()
                .to_vec(),
            CType::Float(FloatKind::BF16) => cucc_ir::float::f64_to_bf16(v.as_f64())
                .to_le_bytes()
                .to_vec(),
            CType::Ptr(_) if v.as_i64() == 0 => vec![0; 8],
            // A device function's pointer is its number (see `fnptr`).
            CType::Ptr(f) if matches!(f.strip(), CType::Func(..)) => {
                v.as_i64().to_le_bytes().to_vec()
            }
            _ => return Err(not_const()),
        };
        let end = off + bytes.len();
        if end > out.len() {
            return Err(not_const());
        }
        out[off..end].copy_from_slice(&bytes);
        Ok(())
    }

    /// Folds a scalar constant expression.
    fn eval_scalar(&mut self, e: &Node) -> Option<Num> {
        let child = |i: usize| e.inner.get(i);
        let ty =
            e.ty.as_ref()
                .and_then(|q| ctype::parse(q.canonical()))
                .map(|t| self.resolve(&t));
        match e.kind {
            Kind::IntegerLiteral | Kind::ConstantExpr
                if matches!(&e.value, Some(LiteralValue::Text(_))) =>
            {
                let Some(LiteralValue::Text(t)) = &e.value else {
                    return None;
                };
                if ty.as_ref().is_some_and(|t| t.is_float()) {
                    return t.parse().ok().map(Num::F);
                }
                parse_int_text(t).map(Num::I)
            }
            Kind::CharacterLiteral => match &e.value {
                Some(LiteralValue::Number(x)) => x.as_i64().map(Num::I),
                _ => None,
            },
            Kind::CXXBoolLiteralExpr => match &e.value {
                Some(LiteralValue::Bool(b)) => Some(Num::I(i64::from(*b))),
                _ => None,
            },
            Kind::FloatingLiteral => match &e.value {
                Some(LiteralValue::Text(t)) => {
                    if ty == Some(CType::Float(FloatKind::F32)) {
                        t.parse::<f32>().ok().map(|x| Num::F(f64::from(x)))
                    } else {
                        t.parse().ok().map(Num::F)
                    }
                }
                _ => None,
            },
            Kind::CXXNullPtrLiteralExpr => Some(Num::I(0)),
            Kind::DeclRefExpr => {
                let d = e.referenced_decl.as_ref()?;
                if let Some(v) = self.records.enum_values.get(&d.id) {
                    return Some(Num::I(*v));
                }
                if d.kind.is_function() {
                    return self.fn_ptr_number(d.id).map(Num::I);
                }
                // A constexpr/const variable with a constant initialiser.
                let n = self.nodes.get(&d.id)?;
                let init = n.inner.iter().find(|c| c.value_category.is_some())?;
                self.eval_scalar(init)
            }
            Kind::ParenExpr
            | Kind::ExprWithCleanups
            | Kind::ConstantExpr
            | Kind::SubstNonTypeTemplateParmExpr => self.eval_scalar(e.inner.last()?),
            Kind::ImplicitCastExpr
            | Kind::CStyleCastExpr
            | Kind::CXXStaticCastExpr
            | Kind::CXXFunctionalCastExpr => {
                let v = self.eval_scalar(child(0)?)?;
                let t = ty?;
                Some(match t {
                    CType::Float(FloatKind::F32) => Num::F(f64::from(v.as_f64() as f32)),
                    CType::Float(_) => Num::F(v.as_f64()),
                    CType::Bool => Num::I(i64::from(v.as_f64() != 0.0)),
                    CType::Int { bits, signed } => {
                        let x = match v {
                            Num::I(i) => i,
                            Num::F(f) => f as i64,
                        };
                        Num::I(wrap(x, bits, signed))
                    }
                    CType::Ptr(_) => v,
                    _ => return None,
                })
            }
            Kind::UnaryOperator => {
                let v = self.eval_scalar(child(0)?)?;
                match (e.opcode.as_deref()?, v) {
                    ("-", Num::I(i)) => Some(Num::I(i.wrapping_neg())),
                    ("-", Num::F(f)) => Some(Num::F(-f)),
                    ("+", v) => Some(v),
                    ("~", Num::I(i)) => Some(Num::I(!i)),
                    ("!", v) => Some(Num::I(i64::from(v.as_f64() == 0.0))),
                    _ => None,
                }
            }
            Kind::BinaryOperator => {
                let a = self.eval_scalar(child(0)?)?;
                let b = self.eval_scalar(child(1)?)?;
                let op = e.opcode.as_deref()?;
                let r = match (a, b) {
                    (Num::I(x), Num::I(y)) => Num::I(match op {
                        "+" => x.wrapping_add(y),
                        "-" => x.wrapping_sub(y),
                        "*" => x.wrapping_mul(y),
                        "/" => x.checked_div(y)?,
                        "%" => x.checked_rem(y)?,
                        "<<" => x.checked_shl(y as u32)?,
                        ">>" => x.checked_shr(y as u32)?,
                        "&" => x & y,
                        "|" => x | y,
                        "^" => x ^ y,
                        "==" => i64::from(x == y),
                        "!=" => i64::from(x != y),
                        "<" => i64::from(x < y),
                        ">" => i64::from(x > y),
                        "<=" => i64::from(x <= y),
                        ">=" => i64::from(x >= y),
                        "&&" => i64::from(x != 0 && y != 0),
                        "||" => i64::from(x != 0 || y != 0),
                        _ => return None,
                    }),
                    (a, b) => {
                        let (x, y) = (a.as_f64(), b.as_f64());
                        match op {
                            "+" => Num::F(x + y),
                            "-" => Num::F(x - y),
                            "*" => Num::F(x * y),
                            "/" => Num::F(x / y),
                            "<" => Num::I(i64::from(x < y)),
                            ">" => Num::I(i64::from(x > y)),
                            _ => return None,
                        }
                    }
                };
                if let (Num::I(x), Some(CType::Int { bits, signed })) = (r, ty.clone()) {
                    return Some(Num::I(wrap(x, bits, signed)));
                }
                if let (Num::F(x), Some(CType::Float(FloatKind::F32))) = (r, &ty) {
                    return Some(Num::F(f64::from(x as f32)));
                }
                Some(r)
            }
            Kind::UnaryExprOrTypeTraitExpr => {
                let operand = match e.extra("argType") {
                    Some(_) => None,
                    None => child(0)
                        .and_then(|c| c.ty.as_ref())
                        .and_then(|q| ctype::parse(q.canonical())),
                };
                let v = self.size_align_of(e, operand).ok()?;
                Some(Num::I(v as i64))
            }
            _ => None,
        }
    }
}

/// A folded constant.
#[derive(Clone, Copy, Debug)]
enum Num {
    I(i64),
    F(f64),
}

impl Num {
    fn as_f64(self) -> f64 {
        match self {
            Num::I(i) => i as f64,
            Num::F(f) => f,
        }
    }
    fn as_i64(self) -> i64 {
        match self {
            Num::I(i) => i,
            Num::F(f) => f as i64,
        }
    }
}

fn wrap(x: i64, bits: u8, signed: bool) -> i64 {
    if bits >= 64 {
        return x;
    }
    let m = (1i64 << bits) - 1;
    let v = x & m;
    if signed && v >> (bits - 1) & 1 == 1 {
        v | !m
    } else {
        v
    }
}

/// `texture<T, dim, mode>` -> (T, dims).
fn texture_params(s: &str) -> Option<(CType, u8)> {
    let inner = s
        .trim_start_matches("struct ")
        .strip_prefix("texture<")?
        .strip_suffix('>')?;
    let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
    let elem = ctype::parse(parts.first()?)?;
    let dims = match parts.get(1).copied().unwrap_or("1") {
        "1" | "cudaTextureType1D" => 1,
        "2" | "cudaTextureType2D" => 2,
        "3" | "cudaTextureType3D" => 3,
        d => d
            .parse()
            .ok()
            .filter(|&x: &u8| (1..=3).contains(&x))
            .unwrap_or(1),
    };
    Some((elem, dims))
}
