//! Calls: module functions, and CUDA's built-in variables and intrinsics
//! (declared without a body in cucc's headers, recognised by name).

use cucc_ir::{
    AtomicOp, BarrierReduceKind, BarrierScope, BinOp, CastOp, CmpPred, Dim, MemScope, OpKind,
    ShuffleMode, TexKind, Type, UnOp, Value, VoteKind,
};

use super::ctype::CType;
use super::diag::Diagnostic;
use super::expr::{string_of, strip, RV};
use super::func::{FnCx, R};
use crate::ast::{Kind, Node, ValueCategory};

fn dim_of(name: &str) -> Option<Dim> {
    Dim::from_name(name)
}

impl<'m, 'a> FnCx<'m, 'a> {
    fn is_builtin_var(&self, n: &Node) -> Option<String> {
        let n = strip(n);
        if n.kind != Kind::DeclRefExpr {
            return None;
        }
        let d = n.referenced_decl.as_ref()?;
        if self.vars.contains_key(&d.id) {
            return None;
        }
        let name = d.name.as_deref()?;
        let decl = self.mc.nodes.get(&d.id)?;
        (matches!(
            name,
            "threadIdx" | "blockIdx" | "blockDim" | "gridDim" | "warpSize"
        ) && decl.storage_class.as_deref() == Some("extern"))
        .then(|| name.to_string())
    }

    fn coord(&mut self, var: &str, d: Dim) -> Value {
        let mut b = self.b();
        match var {
            "threadIdx" => b.thread_id(d),
            "blockIdx" => b.block_id(d),
            "blockDim" => b.block_dim(d),
            _ => b.grid_dim(d),
        }
    }

    /// `threadIdx.x` and friends as ops.
    pub fn builtin_var_member(&mut self, n: &'a Node) -> R<Option<Value>> {
        let n = strip(n);
        if n.kind != Kind::MemberExpr || n.is_arrow {
            return Ok(None);
        }
        let Some(base) = n.inner.first() else {
            return Ok(None);
        };
        let Some(var) = self.is_builtin_var(base) else {
            return Ok(None);
        };
        let Some(d) = n.name.as_deref().and_then(dim_of) else {
            return self.err(n, "unknown member of a built-in variable");
        };
        Ok(Some(self.coord(&var, d)))
    }

    /// `warpSize` as an op.
    pub fn builtin_scalar_var(&mut self, n: &'a Node) -> R<Option<Value>> {
        match self.is_builtin_var(n).as_deref() {
            Some("warpSize") => {
                let t = self.mc.module.types.i32();
                Ok(Some(self.b().op1(OpKind::WarpSize, vec![], t)))
            }
            _ => Ok(None),
        }
    }

    /// A whole built-in variable (`dim3 b = blockDim;`): a temporary holding
    /// the three coordinates.
    pub fn builtin_var_whole(&mut self, e: &'a Node, decl: &'a Node) -> R<Option<Value>> {
        let Some(var) = self.is_builtin_var(e) else {
            return Ok(None);
        };
        if var == "warpSize" {
            let v = self
                .builtin_scalar_var(e)?
                .ok_or_else(|| Diagnostic::at(e, "warpSize"))?;
            let t = self.mc.module.types.i32();
            let slot = self.entry_alloca(t);
            self.b().store(slot, v);
            return Ok(Some(slot));
        }
        let ct = self.ty_of(decl)?;
        let slot = self.temp(&ct, e)?;
        let CType::Named(name) = ct.strip() else {
            return self.err(e, "unexpected built-in variable type");
        };
        let l = self.mc.layout(name, e)?;
        for (i, d) in Dim::ALL.into_iter().enumerate() {
            let v = self.coord(&var, d);
            let p = self.b().ptr_field(slot, l.ty, i as u32);
            self.b().store(p, v);
        }
        Ok(Some(slot))
    }

    /// Lowers a call expression; `dst` receives an aggregate result.
    pub fn call(&mut self, e: &'a Node, dst: Option<Value>) -> R<RV> {
        let callee = e
            .inner
            .first()
            .ok_or_else(|| Diagnostic::at(e, "call without a callee"))?;
        let (decl_id, obj, args): (crate::ast::NodeId, Option<(&'a Node, bool)>, Vec<&'a Node>) =
            match e.kind {
                Kind::CXXMemberCallExpr => {
                    let m = strip(callee);
                    if m.kind != Kind::MemberExpr {
                        return self.err(
                            e,
                            "calls through member pointers are not supported in device code",
                        );
                    }
                    let id = m
                        .referenced_member_decl
                        .ok_or_else(|| Diagnostic::at(e, "unknown method"))?;
                    let o = m
                        .inner
                        .first()
                        .ok_or_else(|| Diagnostic::at(e, "method call without an object"))?;
                    (id, Some((o, m.is_arrow)), e.inner[1..].iter().collect())
                }
                _ => {
                    let c = strip_callee(callee);
                    let d = match c.kind {
                        Kind::DeclRefExpr => c.referenced_decl.as_ref().map(|d| d.id),
                        Kind::MemberExpr => c.referenced_member_decl,
                        _ => None,
                    };
                    let decl = d.and_then(|id| self.mc.nodes.get(&id).copied());
                    let pointer = decl.is_some_and(|d| !d.kind.is_function());
                    let (Some(id), false) = (d, pointer) else {
                        // A pointer: a variable, a field, an element.
                        let args: Vec<&'a Node> = e.inner[1..].iter().collect();
                        return self.call_through_pointer(e, callee, &args, dst);
                    };
                    let is_method = decl.is_some_and(|d| {
                        d.kind != Kind::FunctionDecl
                            && d.kind.is_function()
                            && d.storage_class.as_deref() != Some("static")
                    });
                    if e.kind == Kind::CXXOperatorCallExpr && is_method {
                        let o = e
                            .inner
                            .get(1)
                            .ok_or_else(|| Diagnostic::at(e, "operator without an object"))?;
                        (id, Some((o, false)), e.inner[2..].iter().collect())
                    } else {
                        (id, None, e.inner[1..].iter().collect())
                    }
                }
            };
        let Some(decl) = self.mc.nodes.get(&decl_id).copied() else {
            let name = callee_name(callee).unwrap_or_else(|| "?".into());
            return self.err(
                e,
                format!("call to '{name}', which is not available in device code"),
            );
        };
        if decl.extra("virtual").is_some() || decl.extra("pure").is_some() {
            return self.err(e, "virtual calls are not supported in device code");
        }
        let name = decl.name.clone().unwrap_or_default();
        // Trivial assignment operators.
        if name == "operator=" && self.mc.definition(decl).is_none() {
            if let (Some((o, arrow)), Some(a)) = (obj, args.first()) {
                let dstp = if arrow {
                    self.scalar(o)?
                } else {
                    self.lvalue(o)?
                };
                let ct = self.ty_of(a)?;
                let src = self.materialise(a)?;
                if self.mc.scalar_ty(&ct).is_some() {
                    let v = self.load(src, &ct, a)?;
                    self.store(dstp, v, &ct);
                } else {
                    self.copy(dstp, src, &ct, e)?;
                }
                return Ok(RV::Scalar(self.to_generic(dstp)));
            }
        }
        match self.mc.definition(decl) {
            Some(def) => {
                if def.is_kernel() {
                    return self.err(
                        e,
                        "kernel launches from device code (dynamic parallelism) are not supported",
                    );
                }
                let this = match obj {
                    Some((o, true)) => Some(self.scalar(o)?),
                    Some((o, false)) => Some(self.materialise(o)?),
                    None => None,
                };
                self.call_function(e, decl, def, dst, this, &args)
            }
            None => {
                if let Some(r) = self.intrinsic(e, &name, decl, &args, dst)? {
                    return Ok(r);
                }
                if self.mc.relocatable && decl.has_attr(&Kind::CUDADeviceAttr) {
                    // Defined by another translation unit: the device link
                    // step supplies the body.
                    self.mc.request_import(decl)?;
                    let this = match obj {
                        Some((o, true)) => Some(self.scalar(o)?),
                        Some((o, false)) => Some(self.materialise(o)?),
                        None => None,
                    };
                    return self.call_function(e, decl, decl, dst, this, &args);
                }
                self.err(
                    e,
                    format!("call to '{name}', which has no definition in device code"),
                )
            }
        }
    }

    /// Calls the module function for definition `def` (declared as `decl`,
    /// whose default arguments apply). `this_or_dst` for constructors is the
    /// object.
    pub fn call_function(
        &mut self,
        e: &'a Node,
        decl: &'a Node,
        def: &'a Node,
        dst: Option<Value>,
        this: Option<Value>,
        args: &[&'a Node],
    ) -> R<RV> {
        let sig = self.mc.request(def, false)?;
        self.note_call(sig.id, e);
        let is_ctor = def.kind == Kind::CXXConstructorDecl;
        let mut ir_args = Vec::new();
        let mut sret_tmp = None;
        if sig.sret {
            let d = match dst {
                Some(d) => d,
                None => {
                    let t = self.temp(&sig.ret, e)?;
                    sret_tmp = Some(t);
                    t
                }
            };
            ir_args.push(self.to_generic(d));
        }
        if sig.has_this {
            let t = if is_ctor { dst } else { this };
            let t = t.ok_or_else(|| Diagnostic::at(e, "method call without an object"))?;
            ir_args.push(self.to_generic(t));
        }
        let dparams: Vec<&'a Node> = decl
            .inner
            .iter()
            .filter(|c| c.kind == Kind::ParmVarDecl)
            .collect();
        let fparams: Vec<&'a Node> = def
            .inner
            .iter()
            .filter(|c| c.kind == Kind::ParmVarDecl)
            .collect();
        if args.len() > sig.params.len() {
            return self.err(e, "variadic calls are not supported in device code");
        }
        for (i, pct) in sig.params.iter().enumerate() {
            let a: &'a Node = match args.get(i) {
                Some(a) if a.kind != Kind::CXXDefaultArgExpr => a,
                _ => {
                    let p = dparams.get(i).or(fparams.get(i)).copied();
                    let d = p.and_then(|p| p.inner.iter().find(|c| c.value_category.is_some()));
                    let d = d.or_else(|| {
                        fparams
                            .get(i)
                            .and_then(|p| p.inner.iter().find(|c| c.value_category.is_some()))
                    });
                    d.ok_or_else(|| Diagnostic::at(e, "missing argument"))?
                }
            };
            let v = if pct.is_ref() {
                let p = self.materialise(a)?;
                self.to_generic(p)
            } else if self.mc.scalar_ty(pct).is_some() {
                let v = self.scalar(a)?;
                self.to_generic(v)
            } else {
                let t = self.temp(pct, a)?;
                self.agg_into(a, t)?;
                t
            };
            ir_args.push(v);
        }
        self.at(e);
        let results = self.func_results(sig.id);
        let r = self.b().call(sig.id, ir_args, &results);
        if let Some(v) = r.first() {
            return Ok(RV::Scalar(*v));
        }
        if sig.sret {
            return Ok(match sret_tmp.or(dst) {
                Some(p) => RV::Agg(p),
                None => RV::Void,
            });
        }
        Ok(RV::Void)
    }

    fn func_results(&self, id: cucc_ir::FuncId) -> Vec<cucc_ir::TypeId> {
        if id == self.fid {
            return self.func.results.clone();
        }
        self.mc.module.functions[id].results.clone()
    }

    pub(super) fn arg_scalar(
        &mut self,
        args: &[&'a Node],
        i: usize,
        decl: &'a Node,
        e: &'a Node,
    ) -> R<(Value, CType)> {
        let a: &'a Node = match args.get(i) {
            Some(a) if a.kind != Kind::CXXDefaultArgExpr => a,
            _ => {
                let p = decl
                    .inner
                    .iter()
                    .filter(|c| c.kind == Kind::ParmVarDecl)
                    .nth(i);
                p.and_then(|p| p.inner.iter().find(|c| c.value_category.is_some()))
                    .ok_or_else(|| Diagnostic::at(e, "missing argument"))?
            }
        };
        let ct = self.ty_of(a)?;
        let ct = self.mc.resolve(&ct);
        let v = self.scalar(a)?;
        Ok((v, ct))
    }

    pub(super) fn i32_of(&mut self, v: Value, ct: &CType, e: &Node) -> R<Value> {
        let t = CType::int(32, true);
        self.convert(v, ct, &t, e)
    }

    pub(super) fn result(&mut self, v: Value, from: &CType, e: &Node) -> R<RV> {
        let to = self.ty_of(e)?;
        if *to.strip() == CType::Void {
            return Ok(RV::Void);
        }
        Ok(RV::Scalar(self.convert(v, from, &to, e)?))
    }

    /// Lowers a call of a built-in; `None` if `name` is not one.
    fn intrinsic(
        &mut self,
        e: &'a Node,
        name: &str,
        decl: &'a Node,
        args: &[&'a Node],
        dst: Option<Value>,
    ) -> R<Option<RV>> {
        let i32c = CType::int(32, true);
        let u32c = CType::int(32, false);
        let boolc = CType::Bool;
        macro_rules! arg {
            ($i:expr) => {
                self.arg_scalar(args, $i, decl, e)?
            };
        }
        let r = match name {
            "__syncthreads" => {
                self.b().barrier();
                RV::Void
            }
            "__syncthreads_count" | "__syncthreads_and" | "__syncthreads_or" => {
                let (v, ct) = arg!(0);
                let p = self.to_bool(v, &ct, e)?;
                let kind = match name {
                    "__syncthreads_count" => BarrierReduceKind::Count,
                    "__syncthreads_and" => BarrierReduceKind::And,
                    _ => BarrierReduceKind::Or,
                };
                let r = self.b().barrier_reduce(kind, p);
                let from = if kind == BarrierReduceKind::Count {
                    i32c.clone()
                } else {
                    boolc.clone()
                };
                self.result(r, &from, e)?
            }
            "__syncwarp" => {
                let (m, ct) = arg!(0);
                let m = self.i32_of(m, &ct, e)?;
                self.b().barrier_warp(m);
                RV::Void
            }
            "__threadfence" | "__threadfence_block" | "__threadfence_system" => {
                let s = match name {
                    "__threadfence" => MemScope::Device,
                    "__threadfence_block" => MemScope::Block,
                    _ => MemScope::System,
                };
                self.b().fence(s);
                RV::Void
            }
            "__activemask" => {
                let t = self.mc.module.types.i32();
                let v = self.b().op1(OpKind::ActiveMask, vec![], t);
                self.result(v, &u32c, e)?
            }
            "__trap" => {
                self.b().trap("__trap() called", false);
                RV::Void
            }
            "__assert_fail" => {
                let s = |i: usize| {
                    args.get(i)
                        .and_then(|a| string_of(a))
                        .map(|b| String::from_utf8_lossy(&b).into_owned())
                };
                let line = args
                    .get(2)
                    .and_then(|a| super::records::const_int_of(a))
                    .unwrap_or(0);
                let msg = format!(
                    "{}:{}: {}: Assertion `{}` failed.",
                    s(1).unwrap_or_default(),
                    line,
                    s(3).unwrap_or_else(|| self.pretty.clone()),
                    s(0).unwrap_or_default()
                );
                self.b().trap(msg, true);
                RV::Void
            }
            "printf" => {
                let fmt = args.first().and_then(|a| string_of(a)).ok_or_else(|| {
                    Diagnostic::at(e, "printf needs a literal format string in device code")
                })?;
                let fmt = String::from_utf8_lossy(&fmt).into_owned();
                let mut vals = Vec::new();
                for a in &args[1..] {
                    let v = self.scalar(a)?;
                    vals.push(self.to_generic(v));
                }
                self.b()
                    .op(OpKind::Printf { format: fmt }, vals, &[], vec![]);
                let n = self.b().i32(args.len() as i32 - 1);
                self.result(n, &i32c, e)?
            }
            "clock" | "clock64" => {
                let wide = name == "clock64";
                let t = if wide {
                    self.mc.module.types.i64()
                } else {
                    self.mc.module.types.i32()
                };
                let v = self.b().op1(OpKind::Clock { wide }, vec![], t);
                let from = CType::int(if wide { 64 } else { 32 }, true);
                self.result(v, &from, e)?
            }
            "memcpy" | "memset" => {
                let (d, _) = arg!(0);
                let (s, sct) = arg!(1);
                let (n, nct) = arg!(2);
                let u64c = CType::int(64, false);
                let n = self.convert(n, &nct, &u64c, e)?;
                if name == "memcpy" {
                    self.b().memcpy(d, s, n);
                } else {
                    let i8c = CType::int(8, false);
                    let c = self.convert(s, &sct, &i8c, e)?;
                    self.b().memset(d, c, n);
                }
                RV::Scalar(d)
            }
            "malloc" | "free" | "__nv_aligned_device_malloc" => {
                return self.err(
                    e,
                    "dynamic allocation (malloc/free) is not supported in device code",
                )
            }
            _ => return self.intrinsic2(e, name, decl, args, dst),
        };
        Ok(Some(r))
    }

    fn intrinsic2(
        &mut self,
        e: &'a Node,
        name: &str,
        decl: &'a Node,
        args: &[&'a Node],
        dst: Option<Value>,
    ) -> R<Option<RV>> {
        let i32c = CType::int(32, true);
        let boolc = CType::Bool;
        macro_rules! arg {
            ($i:expr) => {
                self.arg_scalar(args, $i, decl, e)?
            };
        }
        // Cache-hinted loads: plain loads on a CPU.
        if matches!(
            name,
            "__ldg" | "__ldcg" | "__ldca" | "__ldcs" | "__ldlu" | "__ldcv"
        ) {
            let (p, pct) = arg!(0);
            let Some(elem) = pct.pointee().cloned() else {
                return self.err(e, format!("'{name}' needs a pointer"));
            };
            if self.mc.scalar_ty(&elem).is_some() {
                let v = self.load(p, &elem, e)?;
                return Ok(Some(RV::Scalar(v)));
            }
            return Ok(Some(RV::Agg(p)));
        }
        // sincos: both results through pointers.
        if matches!(name, "sincosf" | "sincos" | "__sincosf") {
            let (x, xct) = arg!(0);
            let (sp, spct) = arg!(1);
            let (cp, _) = arg!(2);
            let dbl = matches!(xct, CType::Float(cucc_ir::FloatKind::F64));
            let (sn, cn) = if dbl {
                ("sin", "cos")
            } else {
                ("sinf", "cosf")
            };
            let t = self.b().ty(x);
            let sv = self.b().call_extern(sn, vec![x], &[t])[0];
            let cv = self.b().call_extern(cn, vec![x], &[t])[0];
            let elem = spct.pointee().cloned().unwrap_or(xct);
            self.store(sp, sv, &elem);
            self.store(cp, cv, &elem);
            return Ok(Some(RV::Void));
        }
        // Atomics.
        if let Some(base) = name.strip_prefix("atomic") {
            let (base, scope) = if let Some(b) = base.strip_suffix("_block") {
                (b, MemScope::Block)
            } else if let Some(b) = base.strip_suffix("_system") {
                (b, MemScope::System)
            } else {
                (base, MemScope::Device)
            };
            let (p, pct) = arg!(0);
            let elem = pct
                .pointee()
                .cloned()
                .map(|t| self.mc.resolve(&t))
                .unwrap_or(CType::Void);
            if base == "CAS" {
                let (c, cct) = arg!(1);
                let (v, vct) = arg!(2);
                let c = self.convert(c, &cct, &elem, e)?;
                let v = self.convert(v, &vct, &elem, e)?;
                let t = self.func.value_type(v);
                let r = self.b().op1(OpKind::AtomicCas { scope }, vec![p, c, v], t);
                return Ok(Some(self.result(r, &elem, e)?));
            }
            if matches!(elem, CType::Named(_)) {
                // float2/float4/__half2: component-wise atomic adds.
                if base != "Add" {
                    return self.err(e, format!("'{name}' on vector types is not supported"));
                }
                let (ety, n, sty) = self.mc.vector_elem(&elem, e)?;
                let a = args
                    .get(1)
                    .copied()
                    .ok_or_else(|| Diagnostic::at(e, "missing argument"))?;
                let src = self.materialise(a)?;
                let out = match dst {
                    Some(d) => d,
                    None => self.temp(&elem, e)?,
                };
                for k in 0..n as u32 {
                    let mut b = self.b();
                    let pp = b.ptr_field(p, sty, k);
                    let sp = b.ptr_field(src, sty, k);
                    let v = b.load(sp, ety);
                    let old = b.op1(
                        OpKind::AtomicRmw {
                            op: AtomicOp::FAdd,
                            scope,
                        },
                        vec![pp, v],
                        ety,
                    );
                    let op = b.ptr_field(out, sty, k);
                    b.store(op, old);
                }
                return Ok(Some(RV::Agg(out)));
            }
            let (v, vct) = arg!(1);
            let v = self.convert(v, &vct, &elem, e)?;
            let is_float = elem.is_float();
            let signed = elem.is_signed();
            let op = match (base, is_float) {
                ("Add", false) => AtomicOp::Add,
                ("Add", true) => AtomicOp::FAdd,
                ("Sub", false) => AtomicOp::Sub,
                ("Exch", _) => AtomicOp::Xchg,
                ("Min", false) => {
                    if signed {
                        AtomicOp::SMin
                    } else {
                        AtomicOp::UMin
                    }
                }
                ("Max", false) => {
                    if signed {
                        AtomicOp::SMax
                    } else {
                        AtomicOp::UMax
                    }
                }
                ("Min", true) => AtomicOp::FMin,
                ("Max", true) => AtomicOp::FMax,
                ("Inc", false) => AtomicOp::Inc,
                ("Dec", false) => AtomicOp::Dec,
                ("And", false) => AtomicOp::And,
                ("Or", false) => AtomicOp::Or,
                ("Xor", false) => AtomicOp::Xor,
                _ => return self.err(e, format!("'{name}' is not supported on this type")),
            };
            let t = self.func.value_type(v);
            if op == AtomicOp::Xchg && is_float {
                // The IR exchanges integers: exchange the bits.
                let bits = (self.mc.module.types.size_of(t) * 8) as u8;
                let it = self.mc.module.types.int(bits);
                let mut b = self.b();
                let vi = b.cast(CastOp::Bitcast, v, it);
                let old = b.op1(OpKind::AtomicRmw { op, scope }, vec![p, vi], it);
                let r = b.cast(CastOp::Bitcast, old, t);
                return Ok(Some(self.result(r, &elem, e)?));
            }
            let r = self.b().op1(OpKind::AtomicRmw { op, scope }, vec![p, v], t);
            return Ok(Some(self.result(r, &elem, e)?));
        }
        if let Some(r) = self.warp_match_reduce(e, name, decl, args)? {
            return Ok(Some(r));
        }
        // Warp shuffles and votes.
        let shfl = match name {
            "__shfl_sync" | "__shfl" => Some(ShuffleMode::Idx),
            "__shfl_up_sync" | "__shfl_up" => Some(ShuffleMode::Up),
            "__shfl_down_sync" | "__shfl_down" => Some(ShuffleMode::Down),
            "__shfl_xor_sync" | "__shfl_xor" => Some(ShuffleMode::Xor),
            _ => None,
        };
        if let Some(mode) = shfl {
            let sync = name.ends_with("_sync");
            let k = usize::from(sync);
            let mask = if sync {
                let (m, mct) = arg!(0);
                self.i32_of(m, &mct, e)?
            } else {
                self.b().i32(-1)
            };
            let (v, vct) = arg!(k);
            let (l, lct) = arg!(k + 1);
            let l = self.i32_of(l, &lct, e)?;
            let w = if args
                .get(k + 2)
                .is_some_and(|a| a.kind != Kind::CXXDefaultArgExpr)
            {
                let (w, wct) = arg!(k + 2);
                self.i32_of(w, &wct, e)?
            } else {
                self.b().i32(32)
            };
            let v = if matches!(vct, CType::Bool) {
                self.convert(v, &boolc, &i32c, e)?
            } else {
                v
            };
            let r = self.b().shuffle(mode, mask, v, l, w);
            let from = if matches!(vct, CType::Bool) {
                i32c.clone()
            } else {
                vct
            };
            return Ok(Some(self.result(r, &from, e)?));
        }
        let vote = match name {
            "__ballot_sync" | "__ballot" => Some(VoteKind::Ballot),
            "__any_sync" | "__any" => Some(VoteKind::Any),
            "__all_sync" | "__all" => Some(VoteKind::All),
            _ => None,
        };
        if let Some(kind) = vote {
            let sync = name.ends_with("_sync");
            let mask = if sync {
                let (m, mct) = arg!(0);
                self.i32_of(m, &mct, e)?
            } else {
                self.b().i32(-1)
            };
            let (p, pct) = arg!(usize::from(sync));
            let p = self.to_bool(p, &pct, e)?;
            let r = self.b().vote(kind, mask, p);
            let from = if kind == VoteKind::Ballot {
                CType::int(32, false)
            } else {
                boolc
            };
            return Ok(Some(self.result(r, &from, e)?));
        }
        // Texture fetches.
        if matches!(name, "tex1Dfetch" | "tex1D" | "tex2D" | "tex3D") {
            return self.texture(e, name, args, dst).map(Some);
        }
        self.math(e, name, decl, args)
    }

    fn texture(&mut self, e: &'a Node, name: &str, args: &[&'a Node], dst: Option<Value>) -> R<RV> {
        let kind = match name {
            "tex1Dfetch" => TexKind::Fetch1D,
            "tex1D" => TexKind::Tex1D,
            "tex2D" => TexKind::Tex2D,
            _ => TexKind::Tex3D,
        };
        // `void` forms return through a leading pointer.
        let rt = self.ty_of(e)?;
        let (out_ptr, args): (Option<Value>, &[&'a Node]) = if *rt.strip() == CType::Void {
            let p = self.scalar(
                args.first()
                    .copied()
                    .ok_or_else(|| Diagnostic::at(e, "missing argument"))?,
            )?;
            (Some(p), &args[1..])
        } else {
            (None, args)
        };
        let elem_ct = if out_ptr.is_some() {
            self.ty_of(e.inner.get(1).unwrap_or(e))?
                .pointee()
                .cloned()
                .unwrap_or(CType::Void)
        } else {
            rt.clone()
        };
        let h = args
            .first()
            .copied()
            .ok_or_else(|| Diagnostic::at(e, "missing texture argument"))?;
        let hct = self.ty_of(h)?;
        let handle = if matches!(hct.strip(), CType::Named(n) if n.starts_with("texture<")) {
            let r = strip(h);
            let r = if r.kind == Kind::CXXConstructExpr {
                r.inner.first().map(strip).unwrap_or(r)
            } else {
                r
            };
            let r = strip(r);
            let id = r
                .referenced_decl
                .as_ref()
                .map(|d| d.id)
                .ok_or_else(|| Diagnostic::at(h, "texture reference expected"))?;
            let decl = self
                .mc
                .nodes
                .get(&id)
                .copied()
                .ok_or_else(|| Diagnostic::at(h, "unknown texture"))?;
            let g = self.mc.global_for(decl)?;
            let t = self.mc.module.types.i64();
            self.b().op1(OpKind::TexRef(g), vec![], t)
        } else {
            let v = self.scalar(h)?;
            let u64c = CType::int(64, false);
            self.convert(v, &hct, &u64c, e)?
        };
        let mut ops = vec![handle];
        for a in args[1..].iter().take(kind.coords()) {
            let ct = self.ty_of(a)?;
            let v = self.scalar(a)?;
            let to = if kind == TexKind::Fetch1D {
                CType::int(32, true)
            } else {
                CType::Float(cucc_ir::FloatKind::F32)
            };
            ops.push(self.convert(v, &ct, &to, e)?);
        }
        if let Some(st) = self.mc.scalar_ty(&elem_ct) {
            let op = self.b().op(OpKind::TexFetch(kind), ops, &[st], vec![]);
            let v = self.func.ops[op].results[0];
            if let Some(p) = out_ptr {
                self.b().store(p, v);
                return Ok(RV::Void);
            }
            return Ok(RV::Scalar(v));
        }
        let (ety, n, sty) = self.mc.vector_elem(&elem_ct, e)?;
        let tys = vec![ety; n];
        let op = self.b().op(OpKind::TexFetch(kind), ops, &tys, vec![]);
        let res = self.func.ops[op].results.clone();
        let out = match out_ptr.or(dst) {
            Some(d) => d,
            None => self.temp(&elem_ct, e)?,
        };
        for (k, v) in res.into_iter().enumerate() {
            let p = self.b().ptr_field(out, sty, k as u32);
            self.b().store(p, v);
        }
        Ok(if out_ptr.is_some() {
            RV::Void
        } else {
            RV::Agg(out)
        })
    }

    fn math(
        &mut self,
        e: &'a Node,
        name: &str,
        decl: &'a Node,
        args: &[&'a Node],
    ) -> R<Option<RV>> {
        macro_rules! arg {
            ($i:expr) => {
                self.arg_scalar(args, $i, decl, e)?
            };
        }
        let rt = self.mc.resolve(&self.ty_of(e)?);
        let f32c = CType::Float(cucc_ir::FloatKind::F32);
        let f64c = CType::Float(cucc_ir::FloatKind::F64);
        // Integer intrinsics.
        let unary_int = match name {
            "__popc" | "__popcll" => Some(UnOp::Popc),
            "__clz" | "__clzll" => Some(UnOp::Clz),
            "__brev" | "__brevll" => Some(UnOp::Brev),
            _ => None,
        };
        if let Some(op) = unary_int {
            let (v, ct) = arg!(0);
            let r = self.b().unary(op, v);
            return Ok(Some(self.result(r, &CType::int(ct_bits(&ct), false), e)?));
        }
        match name {
            "__ffs" | "__ffsll" => {
                let (v, ct) = arg!(0);
                let t = self.func.value_type(v);
                let mut b = self.b();
                let z = b.const_int(t, 0);
                let is0 = b.cmp(CmpPred::Eq, v, z);
                let c = b.unary(UnOp::Ctz, v);
                let one = b.const_int(t, 1);
                let c1 = b.binary(BinOp::Add, c, one);
                let r = b.select(is0, z, c1);
                let _ = ct;
                return Ok(Some(self.result(r, &CType::int(ct_bits(&ct), false), e)?));
            }
            "__mulhi" | "__umulhi" | "__mul64hi" | "__umul64hi" => {
                let (a, act) = arg!(0);
                let (b2, _) = arg!(1);
                let op = if name.starts_with("__u") {
                    BinOp::UMulHi
                } else {
                    BinOp::SMulHi
                };
                let r = self.b().binary(op, a, b2);
                return Ok(Some(self.result(r, &act, e)?));
            }
            "__mul24" | "__umul24" => {
                let (a, act) = arg!(0);
                let (b2, _) = arg!(1);
                let mut b = self.b();
                let k = b.i32(8);
                let (a, b2) = if name == "__mul24" {
                    let x = b.binary(BinOp::Shl, a, k);
                    let x = b.binary(BinOp::AShr, x, k);
                    let y = b.binary(BinOp::Shl, b2, k);
                    (x, b.binary(BinOp::AShr, y, k))
                } else {
                    let m = b.i32(0x00ff_ffff);
                    (b.binary(BinOp::And, a, m), b.binary(BinOp::And, b2, m))
                };
                let r = b.binary(BinOp::Mul, a, b2);
                return Ok(Some(self.result(r, &act, e)?));
            }
            "__sad" | "__usad" => {
                let (a, act) = arg!(0);
                let (b2, _) = arg!(1);
                let (c, _) = arg!(2);
                let signed = name == "__sad";
                let mut bb = self.b();
                let lt = bb.cmp(if signed { CmpPred::Slt } else { CmpPred::Ult }, a, b2);
                let d1 = bb.binary(BinOp::Sub, b2, a);
                let d2 = bb.binary(BinOp::Sub, a, b2);
                let d = bb.select(lt, d1, d2);
                let r = bb.binary(BinOp::Add, d, c);
                let _ = act;
                return Ok(Some(self.result(r, &CType::int(32, false), e)?));
            }
            "min" | "max" | "umin" | "umax" | "llmin" | "llmax" | "ullmin" | "ullmax" => {
                let (a, act) = arg!(0);
                let (b2, _) = arg!(1);
                let is_min = name.ends_with("min");
                let op = if act.is_float() {
                    if is_min {
                        BinOp::FMin
                    } else {
                        BinOp::FMax
                    }
                } else if act.is_signed() {
                    if is_min {
                        BinOp::SMin
                    } else {
                        BinOp::SMax
                    }
                } else if is_min {
                    BinOp::UMin
                } else {
                    BinOp::UMax
                };
                let r = self.b().binary(op, a, b2);
                return Ok(Some(self.result(r, &act, e)?));
            }
            "abs" | "labs" | "llabs" => {
                let (a, act) = arg!(0);
                let t = self.func.value_type(a);
                // abs(float), abs(double): C++'s overloads are fabs.
                if let CType::Float(k @ (cucc_ir::FloatKind::F32 | cucc_ir::FloatKind::F64)) =
                    act.strip()
                {
                    let f = if *k == cucc_ir::FloatKind::F64 {
                        "fabs"
                    } else {
                        "fabsf"
                    };
                    let r = self.b().call_extern(f, vec![a], &[t])[0];
                    return Ok(Some(self.result(r, &act, e)?));
                }
                let mut b = self.b();
                let z = b.const_int(t, 0);
                let n = b.binary(BinOp::Sub, z, a);
                let r = b.binary(BinOp::SMax, a, n);
                return Ok(Some(self.result(r, &act, e)?));
            }
            "fminf" | "fmaxf" | "fmin" | "fmax" | "__hmin" | "__hmax" => {
                let (a, act) = arg!(0);
                let (b2, _) = arg!(1);
                let op = if name.contains("min") {
                    BinOp::FMin
                } else {
                    BinOp::FMax
                };
                let r = self.b().binary(op, a, b2);
                return Ok(Some(self.result(r, &act, e)?));
            }
            _ => {}
        }
        // Reinterpretations.
        if matches!(
            name,
            "__float_as_int"
                | "__float_as_uint"
                | "__int_as_float"
                | "__uint_as_float"
                | "__double_as_longlong"
                | "__longlong_as_double"
        ) {
            let (v, _) = arg!(0);
            let t = self
                .mc
                .scalar_ty(&rt)
                .ok_or_else(|| Diagnostic::at(e, "bad result type"))?;
            let r = self.b().cast(CastOp::Bitcast, v, t);
            return Ok(Some(RV::Scalar(r)));
        }
        // Conversions with a rounding mode: `__float2int_rn` etc.
        if let Some((conv, mode)) = name.strip_prefix("__").and_then(|n| n.rsplit_once('_')) {
            if conv.contains('2') && matches!(mode, "rn" | "rz" | "rd" | "ru") {
                let (v, vct) = arg!(0);
                let to = rt.clone();
                if vct.is_float() && to.is_integral() {
                    // Round in the float type first, then truncate (exact).
                    let fname = match (mode, &vct) {
                        ("rz", _) => None,
                        ("rn", CType::Float(cucc_ir::FloatKind::F64)) => Some("rint"),
                        ("rn", _) => Some("rintf"),
                        ("rd", CType::Float(cucc_ir::FloatKind::F64)) => Some("floor"),
                        ("rd", _) => Some("floorf"),
                        ("ru", CType::Float(cucc_ir::FloatKind::F64)) => Some("ceil"),
                        (_, _) => Some("ceilf"),
                    };
                    let v = match fname {
                        Some(f) => {
                            let (w, wct) = if matches!(
                                vct,
                                CType::Float(cucc_ir::FloatKind::F16 | cucc_ir::FloatKind::BF16)
                            ) {
                                (self.convert(v, &vct, &f32c, e)?, f32c.clone())
                            } else {
                                (v, vct.clone())
                            };
                            let t = self.func.value_type(w);
                            let r = self.b().call_extern(f, vec![w], &[t]);
                            let _ = wct;
                            r[0]
                        }
                        None => v,
                    };
                    let src = self.func.value_type(v);
                    let sct = if self.mc.module.types[src] == Type::Float(cucc_ir::FloatKind::F64) {
                        f64c.clone()
                    } else if self.mc.module.types[src] == Type::Float(cucc_ir::FloatKind::F32) {
                        f32c.clone()
                    } else {
                        vct.clone()
                    };
                    return Ok(Some(RV::Scalar(self.convert(v, &sct, &to, e)?)));
                }
                if mode == "rn" || (vct.is_integral() && to.is_float() && ct_bits(&vct) <= 16) {
                    // Round-to-nearest conversions are the IR's casts.
                    return Ok(Some(RV::Scalar(self.convert(v, &vct, &to, e)?)));
                }
                return self.err(
                    e,
                    format!("'{name}' (directed rounding) is not supported in device code"),
                );
            }
        }
        match name {
            "__float2half" | "__double2half" | "__half2float" | "__float2bfloat16"
            | "__bfloat162float" | "__int2float_rn" => {
                let (v, vct) = arg!(0);
                return Ok(Some(RV::Scalar(self.convert(v, &vct, &rt, e)?)));
            }
            "__hadd" | "__hsub" | "__hmul" | "__hdiv" if rt.is_float() => {
                let (a, act) = arg!(0);
                let (b2, _) = arg!(1);
                let op = &name[3..];
                let sym = match op {
                    "add" => "+",
                    "sub" => "-",
                    "mul" => "*",
                    _ => "/",
                };
                return Ok(Some(RV::Scalar(self.arith(sym, a, b2, &act, e)?)));
            }
            // Round-to-nearest arithmetic is what the IR's float ops do.
            "__fadd_rn" | "__fsub_rn" | "__fmul_rn" | "__fdiv_rn" | "__dadd_rn" | "__dsub_rn"
            | "__dmul_rn" | "__ddiv_rn" | "__hadd_rn" | "__hsub_rn" | "__hmul_rn" => {
                let (a, act) = arg!(0);
                let (b2, _) = arg!(1);
                let sym = match &name[3..6] {
                    "add" => "+",
                    "sub" => "-",
                    "mul" => "*",
                    _ => "/",
                };
                return Ok(Some(RV::Scalar(self.arith(sym, a, b2, &act, e)?)));
            }
            "__frcp_rn" | "__drcp_rn" => {
                let (a, act) = arg!(0);
                let one = {
                    let t = self.b().ty(a);
                    self.b().const_float(t, 1.0)
                };
                return Ok(Some(RV::Scalar(self.arith("/", one, a, &act, e)?)));
            }
            n if directed_builtin(n).is_some() => {
                let Some((op, dir, double, form)) = directed_builtin(n) else {
                    return Ok(None);
                };
                let d = cucc_ir::intrinsics::Directed { op, dir, double };
                if cucc_ir::intrinsics::Directed::parse(&d.name()).is_none() {
                    return Err(Diagnostic::at(
                        e,
                        format!("`{n}`: a double-precision fma rounded toward zero or an infinity is not supported (its exact residual needs more than double precision)"),
                    ));
                }
                let (a, _) = arg!(0);
                let t = self.b().ty(a);
                let mut vals = vec![a];
                for i in 1..op.arity() {
                    if form == DirectedForm::Reciprocal {
                        break;
                    }
                    vals.push(arg!(i).0);
                }
                match form {
                    DirectedForm::Reciprocal => {
                        let one = self.b().const_float(t, 1.0);
                        vals.insert(0, one);
                    }
                    DirectedForm::Difference => {
                        vals[1] = self.b().unary(UnOp::FNeg, vals[1]);
                    }
                    DirectedForm::Plain => {}
                }
                let r = self.b().call_extern(&d.name(), vals, &[t])[0];
                return Ok(Some(RV::Scalar(r)));
            }
            "__hfma" | "__hfma_relu" if rt.is_float() => {
                // Computed in f32: exact products of halves, one rounding
                // to f32 and one to half (documented: not a single rounding).
                let (a, act) = arg!(0);
                let (b2, _) = arg!(1);
                let (c, _) = arg!(2);
                let f32c = CType::Float(cucc_ir::FloatKind::F32);
                let a = self.convert(a, &act, &f32c, e)?;
                let b2 = self.convert(b2, &act, &f32c, e)?;
                let c = self.convert(c, &act, &f32c, e)?;
                let f32t = self.b().types.f32();
                let mut r = self.b().call_extern("fmaf", vec![a, b2, c], &[f32t])[0];
                if name == "__hfma_relu" {
                    let zero = self.b().f32(0.0);
                    r = self.b().binary(BinOp::FMax, r, zero);
                }
                return Ok(Some(RV::Scalar(self.convert(r, &f32c, &act, e)?)));
            }
            "__hneg" => {
                let (a, _) = arg!(0);
                return Ok(Some(RV::Scalar(self.b().unary(UnOp::FNeg, a))));
            }
            "__heq" | "__hne" | "__hlt" | "__hle" | "__hgt" | "__hge" | "__hequ" | "__hneu"
            | "__hltu" | "__hleu" | "__hgtu" | "__hgeu" => {
                let (a, _) = arg!(0);
                let (b2, _) = arg!(1);
                let p = match &name[3..] {
                    "eq" => CmpPred::FOeq,
                    "ne" => CmpPred::FOne,
                    "lt" => CmpPred::FOlt,
                    "le" => CmpPred::FOle,
                    "gt" => CmpPred::FOgt,
                    "ge" => CmpPred::FOge,
                    "equ" => CmpPred::FUeq,
                    "neu" => CmpPred::FUne,
                    "ltu" => CmpPred::FUlt,
                    "leu" => CmpPred::FUle,
                    "gtu" => CmpPred::FUgt,
                    _ => CmpPred::FUge,
                };
                let r = self.b().cmp(p, a, b2);
                return Ok(Some(self.result(r, &CType::Bool, e)?));
            }
            "__hisnan" | "isnan" | "__isnan" | "__isnanf" => {
                let (a, _) = arg!(0);
                let r = self.b().cmp(CmpPred::FUno, a, a);
                return Ok(Some(self.result(r, &CType::Bool, e)?));
            }
            // |x| == inf and |x| < inf (false for NaN).
            "isinf" | "__isinf" | "__isinff" | "isfinite" | "__finite" | "__finitef" => {
                let (a, act) = arg!(0);
                if !act.is_float() {
                    return Ok(None);
                }
                let t = self.func.value_type(a);
                let fabs = if matches!(act.strip(), CType::Float(cucc_ir::FloatKind::F64)) {
                    "fabs"
                } else {
                    "fabsf"
                };
                let mut b = self.b();
                let m = b.call_extern(fabs, vec![a], &[t])[0];
                let inf = b.const_float(t, f64::INFINITY);
                let pred = if name.contains("inf") {
                    CmpPred::FOeq
                } else {
                    CmpPred::FOlt
                };
                let r = b.cmp(pred, m, inf);
                return Ok(Some(self.result(r, &CType::Bool, e)?));
            }
            _ => {}
        }
        // libm and fast intrinsics.
        let (v0, ct0) = match args.first() {
            Some(_) => arg!(0),
            None => return Ok(None),
        };
        let is_f64 = matches!(ct0, CType::Float(cucc_ir::FloatKind::F64));
        let is_half = matches!(
            ct0,
            CType::Float(cucc_ir::FloatKind::F16 | cucc_ir::FloatKind::BF16)
        );
        let base = name.strip_prefix("std::").unwrap_or(name);
        let base = if is_half {
            base.strip_prefix('h').unwrap_or(base)
        } else {
            base
        };
        let ext = cucc_ir::intrinsics::lookup(base)
            .map(|_| base.to_string())
            .or_else(|| {
                let f = format!("{base}f");
                if !is_f64 && cucc_ir::intrinsics::lookup(&f).is_some() {
                    return Some(f);
                }
                let d = base.strip_suffix('f').unwrap_or(base);
                (is_f64 && cucc_ir::intrinsics::lookup(d).is_some()).then(|| d.to_string())
            });
        let ext = match (name, ext) {
            ("__fsqrt_rn", _) => Some("sqrtf".to_string()),
            ("__dsqrt_rn", _) => Some("sqrt".to_string()),
            ("__frsqrt_rn", _) => Some("rsqrtf".to_string()),
            ("__fmaf_rn", _) => Some("fmaf".to_string()),
            ("__fma_rn", _) => Some("fma".to_string()),
            ("fdividef", _) => Some("__fdividef".to_string()),
            (_, x) => x,
        };
        let Some(ext) = ext else {
            return Ok(None);
        };
        let Some(sig) = cucc_ir::intrinsics::lookup(&ext) else {
            return Ok(None);
        };
        let pt = if sig.result == cucc_ir::intrinsics::ScalarKind::F64 {
            f64c.clone()
        } else {
            f32c.clone()
        };
        let mut vals = vec![self.convert(v0, &ct0, &pt, e)?];
        for i in 1..sig.params.len() {
            let (v, ct) = arg!(i);
            vals.push(self.convert(v, &ct, &pt, e)?);
        }
        let t = self
            .mc
            .scalar_ty(&pt)
            .ok_or_else(|| Diagnostic::at(e, "bad math type"))?;
        let r = self.b().call_extern(&ext, vals, &[t]);
        Ok(Some(self.result(r[0], &pt, e)?))
    }
}

fn ct_bits(ct: &CType) -> u8 {
    match ct.strip() {
        CType::Int { bits, .. } => *bits,
        _ => 32,
    }
}

fn strip_callee(mut n: &Node) -> &Node {
    loop {
        match n.kind {
            Kind::ImplicitCastExpr | Kind::ParenExpr | Kind::CStyleCastExpr => {
                match n.inner.first() {
                    Some(c) => n = c,
                    None => return n,
                }
            }
            _ => return n,
        }
    }
}

fn callee_name(n: &Node) -> Option<String> {
    let c = strip_callee(n);
    c.referenced_decl
        .as_ref()
        .and_then(|d| d.name.clone())
        .or_else(|| c.name.clone())
}

#[allow(dead_code)]
fn is_lvalue(n: &Node) -> bool {
    matches!(
        n.value_category,
        Some(ValueCategory::LValue | ValueCategory::XValue)
    )
}

#[allow(dead_code)]
fn unused(_: BarrierScope) {}

/// How a CUDA directed-rounding intrinsic maps onto its extern.
#[derive(Clone, Copy, PartialEq, Eq)]
enum DirectedForm {
    /// The operands as they are.
    Plain,
    /// `a - b` as `a + (-b)` (exact negation).
    Difference,
    /// `1 / a`.
    Reciprocal,
}

/// CUDA's `__fadd_rz`, `__dmul_ru`, `__fmaf_rd`, `__frcp_rz`, ... (rounded
/// toward zero, up or down): the operation, direction, precision and form.
fn directed_builtin(
    name: &str,
) -> Option<(
    cucc_ir::intrinsics::DirectedOp,
    cucc_ir::intrinsics::Direction,
    bool,
    DirectedForm,
)> {
    use cucc_ir::intrinsics::{DirectedOp as Op, Direction};
    let (base, dir) = name.strip_prefix("__")?.rsplit_once('_')?;
    let dir = match dir {
        "rz" => Direction::Zero,
        "ru" => Direction::Up,
        "rd" => Direction::Down,
        _ => return None,
    };
    let (op, double, form) = match base {
        "fadd" => (Op::Add, false, DirectedForm::Plain),
        "fsub" => (Op::Add, false, DirectedForm::Difference),
        "fmul" => (Op::Mul, false, DirectedForm::Plain),
        "fdiv" => (Op::Div, false, DirectedForm::Plain),
        "frcp" => (Op::Div, false, DirectedForm::Reciprocal),
        "fsqrt" => (Op::Sqrt, false, DirectedForm::Plain),
        "fmaf" => (Op::Fma, false, DirectedForm::Plain),
        "dadd" => (Op::Add, true, DirectedForm::Plain),
        "dsub" => (Op::Add, true, DirectedForm::Difference),
        "dmul" => (Op::Mul, true, DirectedForm::Plain),
        "ddiv" => (Op::Div, true, DirectedForm::Plain),
        "drcp" => (Op::Div, true, DirectedForm::Reciprocal),
        "dsqrt" => (Op::Sqrt, true, DirectedForm::Plain),
        "fma" => (Op::Fma, true, DirectedForm::Plain),
        _ => return None,
    };
    Some((op, dir, double, form))
}
