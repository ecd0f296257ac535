//! Pointers to `__device__` functions.
//!
//! The IR has no indirect call. A pointer to a device function is the
//! function's number in the module's table of address-taken device
//! functions (1, 2, ...; 0 stays null), and a call through a pointer is a
//! chain of direct calls, one per table entry of the callee's type, chosen
//! by comparing the number. The table is complete before lowering starts
//! (every place device code or a device variable's initialiser takes a
//! function's address is found first), so every call site sees every
//! candidate. A call through any other value traps, as an invalid call does
//! on the GPU.

use cucc_ir::{CastOp, CmpPred, Value};

use super::ctype::{self, CType};
use super::expr::RV;
use super::func::{FnCx, R};
use super::ModCx;
use crate::ast::{Kind, Node, NodeId};

/// The functions whose address `n` takes, into `out`: every reference to a
/// function outside the callee position of a call (`f`, `&f`, `c ? f : g`,
/// `{f, g}`).
fn scan(n: &Node, callee: bool, out: &mut Vec<NodeId>) {
    match (&n.kind, &n.referenced_decl) {
        (Kind::CallExpr | Kind::CXXMemberCallExpr | Kind::CXXOperatorCallExpr, _) => {
            for (k, c) in n.inner.iter().enumerate() {
                scan(c, k == 0, out);
            }
            return;
        }
        (Kind::DeclRefExpr, Some(d)) if d.kind.is_function() && !callee => out.push(d.id),
        _ => {}
    }
    let pass = callee && matches!(n.kind, Kind::ImplicitCastExpr | Kind::ParenExpr);
    for c in &n.inner {
        scan(c, pass, out);
    }
    for c in &n.array_filler {
        scan(c, false, out);
    }
}

impl<'a> ModCx<'a> {
    /// Finds the device functions whose address is taken and numbers them.
    pub fn number_function_pointers(&mut self) {
        // Device code only: the bodies of device functions and the
        // initialisers of device variables.
        let mut ids = Vec::new();
        for d in &self.tu.decls {
            d.walk(&mut |n| {
                let device = n.has_attr(&Kind::CUDADeviceAttr)
                    || n.has_attr(&Kind::CUDAGlobalAttr)
                    || n.has_attr(&Kind::CUDAConstantAttr);
                if device && (n.kind.is_function() || n.kind.is_variable()) {
                    for c in n.inner.iter().filter(|c| !c.kind.is_function()) {
                        scan(c, false, &mut ids);
                    }
                }
            });
        }
        for id in ids {
            let Some(decl) = self.nodes.get(&id).copied() else {
                continue;
            };
            if !decl.has_attr(&Kind::CUDADeviceAttr) || decl.has_attr(&Kind::CUDAGlobalAttr) {
                continue;
            }
            let Some(def) = self.definition(decl) else {
                continue;
            };
            if !self.fn_ptrs.iter().any(|(_, d)| d.id == def.id) {
                self.fn_ptrs.push((decl, def));
            }
        }
    }

    /// The number standing for a pointer to function `decl`, if its
    /// address is taken in device code.
    pub fn fn_ptr_number(&self, decl: NodeId) -> Option<i64> {
        let def = self.nodes.get(&decl).and_then(|d| self.definition(d))?;
        self.fn_ptrs
            .iter()
            .position(|(_, d)| d.id == def.id)
            .map(|k| k as i64 + 1)
    }
}

/// A function's type as a [`CType::Func`].
fn func_type(n: &Node) -> Option<CType> {
    let t = ctype::parse(n.ty.as_ref()?.canonical())?;
    match t {
        CType::Func(..) => Some(t),
        _ => None,
    }
}

/// The function type a callee expression of type `t` calls.
fn called_type(t: &CType) -> Option<CType> {
    match t.strip() {
        CType::Ptr(f) | CType::Ref(f) => called_type(f),
        f @ CType::Func(..) => Some(f.clone()),
        _ => None,
    }
}

impl<'m, 'a> FnCx<'m, 'a> {
    /// A pointer to function `decl` (its number as a pointer).
    pub fn fn_ptr(&mut self, decl: NodeId, at: &Node) -> R<Value> {
        let Some(k) = self.mc.fn_ptr_number(decl) else {
            return self.err(
                at,
                "pointers to this function are not supported in device code",
            );
        };
        let i64t = self.mc.module.types.i64();
        let gp = self.mc.generic_ptr();
        let mut b = self.b();
        let v = b.const_int(i64t, k);
        Ok(b.cast(CastOp::IntToPtr, v, gp))
    }

    /// A call of `e` through the function pointer `callee`: a chain of
    /// direct calls of the numbered functions of the callee's type.
    pub fn call_through_pointer(
        &mut self,
        e: &'a Node,
        callee: &'a Node,
        args: &[&'a Node],
        dst: Option<Value>,
    ) -> R<RV> {
        let ct = self.ty_of(callee)?;
        let Some(want) = called_type(&ct) else {
            return self.err(e, "call through a value that is no function pointer");
        };
        let want = self.resolve_func(&want);
        let candidates: Vec<(i64, &'a Node, &'a Node)> = self
            .mc
            .fn_ptrs
            .clone()
            .into_iter()
            .enumerate()
            .filter(|(_, (decl, _))| func_type(decl).is_some_and(|t| self.resolve_func(&t) == want))
            .map(|(k, (decl, def))| (k as i64 + 1, decl, def))
            .collect();
        let CType::Func(ret, _) = &want else {
            return self.err(e, "call through a value that is no function pointer");
        };
        let ret = (**ret).clone();
        let p = self.scalar(callee)?;
        let i64t = self.mc.module.types.i64();
        let n = self.b().cast(CastOp::PtrToInt, p, i64t);
        // Scalar results meet in a slot; aggregates in the destination.
        let scalar = self.mc.scalar_ty(&ret);
        let slot = scalar.map(|t| self.entry_alloca(t));
        let agg = match (scalar, &ret) {
            (None, CType::Void) => None,
            (None, _) => Some(match dst {
                Some(d) => d,
                None => self.temp(&ret, e)?,
            }),
            _ => None,
        };
        let outer = self.cur;
        let mut elses = Vec::new();
        for (k, decl, def) in candidates {
            let mut b = self.b();
            let kv = b.const_int(i64t, k);
            let c = b.cmp(CmpPred::Eq, n, kv);
            let (_, t, el) = b.create_if(c, &[]);
            self.cur = t;
            let r = self.call_function(e, decl, def, agg, None, args)?;
            if let (Some(s), RV::Scalar(v)) = (slot, r) {
                self.b().store(s, v);
            }
            self.b().yield_(vec![]);
            self.cur = el;
            elses.push(el);
        }
        self.b()
            .trap("call through an invalid device function pointer", false);
        for el in elses.into_iter().rev() {
            self.cur = el;
            self.b().yield_(vec![]);
        }
        self.cur = outer;
        Ok(match (slot, scalar, agg) {
            (Some(s), Some(t), _) => RV::Scalar(self.b().load(s, t)),
            (_, _, Some(a)) => RV::Agg(a),
            _ => RV::Void,
        })
    }

    /// A function type with its result and parameters' aliases and enums
    /// resolved, for comparing.
    fn resolve_func(&self, t: &CType) -> CType {
        match t {
            CType::Func(r, ps) => CType::Func(
                std::rc::Rc::new(self.mc.resolve(r)),
                ps.iter().map(|p| self.mc.resolve(p)).collect(),
            ),
            t => t.clone(),
        }
    }
}
