//! Functions and statements.
//!
//! Every C local (parameters included) is an `alloca private` at function
//! entry, as clang's codegen does; `cpuify`'s mem2reg promotes them.
//! Control flow is made structured: `break`, `continue` and early `return`
//! set `i1` flag allocas, and the statements after one that may jump are
//! guarded by one `if` on the flags. Loops are IR `while` ops whose
//! before-region evaluates the flags and the condition. Forward `goto`s
//! are flags too (goto.rs).

use std::collections::HashMap;

use cucc_ir::{
    Builder, CastOp, CmpPred, Function, FunctionKind, Loc, ParamAttrs, Region, Space, TypeId, Value,
};

use super::ctype::{self, CType};
use super::diag::{DiagLoc, Diagnostic};
use super::goto::Labels;
use super::{ModCx, Sig};
use crate::ast::{Kind, Node, NodeId};

/// Shorthand for lowering results.
pub type R<T> = Result<T, Diagnostic>;

/// Where a variable lives.
#[derive(Clone, Debug)]
pub enum Storage {
    /// At an address (an alloca, a by-value parameter's copy).
    Addr(Value),
    /// A reference: the slot holds the referenced address.
    Ref(Value),
    /// A module global.
    Global(cucc_ir::GlobalId, Space),
    /// `extern __shared__`: the block's dynamic shared memory.
    DynShared,
}

/// Flags of one enclosing loop or switch.
#[derive(Clone, Copy, Debug)]
pub struct Target {
    /// Set by `break`.
    pub brk: Option<Value>,
    /// Set by `continue` (loops only).
    pub cont: Option<Value>,
    /// A switch (takes `break` but not `continue`).
    pub is_switch: bool,
}

/// Which jumps a statement may take out of itself.
#[derive(Clone, Copy, Debug, Default)]
pub struct Jumps {
    /// `return`.
    pub ret: bool,
    /// `break` of the innermost enclosing loop or switch.
    pub brk: bool,
    /// `continue` of the innermost enclosing loop.
    pub cont: bool,
    /// `goto`s to labels outside the statement (one bit per label, goto.rs).
    pub gotos: u64,
}

impl Jumps {
    fn any(self) -> bool {
        self.ret || self.brk || self.cont || self.gotos != 0
    }

    fn union(self, o: Jumps) -> Jumps {
        Jumps {
            ret: self.ret || o.ret,
            brk: self.brk || o.brk,
            cont: self.cont || o.cont,
            gotos: self.gotos | o.gotos,
        }
    }
}

/// The bits set in `mask`, lowest first.
fn bits(mask: u64) -> impl Iterator<Item = u32> {
    (0..64).filter(move |b| mask & (1u64 << b) != 0)
}

/// Finds the jumps `n` may take (`in_switch`: a `continue` still leaves).
pub fn jumps(n: &Node, labels: &Labels) -> Jumps {
    let mut j = Jumps::default();
    scan(n, &mut j, false, false, labels);
    j
}

fn scan(n: &Node, j: &mut Jumps, in_loop: bool, in_switch: bool, labels: &Labels) {
    match n.kind {
        Kind::ReturnStmt => j.ret = true,
        Kind::BreakStmt if !in_loop && !in_switch => j.brk = true,
        Kind::ContinueStmt if !in_loop => j.cont = true,
        Kind::GotoStmt => {
            if let Some(b) = labels.goto_bit(n) {
                j.gotos |= 1u64 << b;
            }
        }
        Kind::ForStmt | Kind::WhileStmt | Kind::DoStmt | Kind::CXXForRangeStmt => {
            for c in &n.inner {
                scan(c, j, true, in_switch, labels);
            }
        }
        Kind::SwitchStmt => {
            for c in &n.inner {
                scan(c, j, in_loop, true, labels);
            }
        }
        // A goto to a label of this block stays inside it.
        Kind::CompoundStmt => {
            let mut inner = Jumps::default();
            for c in &n.inner {
                scan(c, &mut inner, in_loop, in_switch, labels);
            }
            for c in &n.inner {
                inner.gotos &= !labels.heading(c);
            }
            *j = j.union(inner);
        }
        _ if is_expr(n) => {}
        _ => {
            for c in &n.inner {
                scan(c, j, in_loop, in_switch, labels);
            }
        }
    }
}

fn is_expr(n: &Node) -> bool {
    n.value_category.is_some()
}

/// The lowering state of one function.
pub struct FnCx<'m, 'a> {
    /// The module's state.
    pub mc: &'m mut ModCx<'a>,
    /// The function being built.
    pub func: Function,
    /// Its handle.
    pub fid: cucc_ir::FuncId,
    /// Where ops go.
    pub cur: Region,
    /// Location stamped on new ops.
    pub loc: Loc,
    /// Ops inserted at the start of the entry region so far (allocas).
    pub entry_pos: usize,
    /// Variables by declaration id.
    pub vars: HashMap<NodeId, (Storage, CType)>,
    /// `this`.
    pub this: Option<Value>,
    /// Where an aggregate result goes.
    pub sret: Option<Value>,
    /// C result type.
    pub ret_ty: CType,
    /// Scalar result slot.
    pub ret_slot: Option<Value>,
    /// The function returns a reference: `return e` returns `e`'s address.
    pub ret_ref: bool,
    /// Set by an early `return`.
    pub ret_flag: Option<Value>,
    /// Enclosing loops and switches, innermost last.
    pub targets: Vec<Target>,
    /// The function's name as `__func__` spells it.
    pub pretty: String,
    /// True while lowering statements in tail position of the body.
    pub tail: bool,
    /// The declaration being lowered.
    pub decl: &'a Node,
    /// The labels `goto`s jump to.
    pub labels: Labels,
    /// The flag of each label jumped to, by its bit (`Labels`).
    pub goto_flags: HashMap<u32, Value>,
}

/// The IR signature of function definition `def`, with a placeholder IR
/// function created for it.
pub fn signature<'a>(mc: &mut ModCx<'a>, def: &'a Node, kernel: bool) -> R<Sig> {
    let fty = def
        .ty
        .as_ref()
        .and_then(|q| ctype::parse(q.canonical()))
        .ok_or_else(|| Diagnostic::at(def, "cannot read the function's type"))?;
    let ret = match (&fty, &def.kind) {
        (_, Kind::CXXConstructorDecl | Kind::CXXDestructorDecl) => CType::Void,
        (CType::Func(r, _), _) => mc.resolve(r),
        _ => return Err(Diagnostic::at(def, "cannot read the function's type")),
    };
    let has_this = matches!(
        def.kind,
        Kind::CXXMethodDecl
            | Kind::CXXConstructorDecl
            | Kind::CXXDestructorDecl
            | Kind::CXXConversionDecl
    ) && def.storage_class.as_deref() != Some("static");
    let mut params = Vec::new();
    let mut ir_params: Vec<TypeId> = Vec::new();
    let mut attrs: Vec<ParamAttrs> = Vec::new();
    let gp = mc.generic_ptr();
    let sret = ret != CType::Void && mc.scalar_ty(&ret).is_none();
    if sret {
        ir_params.push(gp);
        attrs.push(ParamAttrs::default());
    }
    if has_this {
        ir_params.push(gp);
        attrs.push(ParamAttrs::default());
    }
    for p in def.inner.iter().filter(|c| c.kind == Kind::ParmVarDecl) {
        let spelled = p.ty.as_ref().map(|q| q.canonical()).unwrap_or("");
        let ct =
            ctype::parse(spelled).ok_or_else(|| Diagnostic::at(p, ctype::unreadable(spelled)))?;
        let ct = mc.resolve(&ct);
        let mut a = ParamAttrs::default();
        let ty = match mc.scalar_ty(&ct) {
            Some(t) => {
                if ct.is_ptr() {
                    a.noalias = spelled.contains("__restrict");
                    if kernel {
                        mc.module.types.ptr(Space::Global)
                    } else {
                        t
                    }
                } else {
                    t
                }
            }
            None => {
                a.byval = Some(mc.mem_ty(&ct, p)?);
                mc.module.types.ptr(Space::Private)
            }
        };
        ir_params.push(ty);
        attrs.push(a);
        params.push(ct);
    }
    let results: Vec<TypeId> = if sret || ret == CType::Void {
        vec![]
    } else {
        mc.scalar_ty(&ret).into_iter().collect()
    };
    let name = def
        .mangled_name
        .clone()
        .or_else(|| def.name.clone())
        .unwrap_or_default();
    let kind = if kernel {
        FunctionKind::Kernel
    } else {
        FunctionKind::Device
    };
    let mut f = Function::new(&name, kind, &ir_params, &results);
    f.params = attrs;
    f.loc = mc.loc(def);
    let id = mc.module.add_function(f);
    Ok(Sig {
        id,
        params,
        ret,
        sret,
        has_this,
    })
}

/// Lowers the body of a requested function definition into its placeholder.
pub fn lower_function<'a>(mc: &mut ModCx<'a>, def: &'a Node) {
    let Some(sig) = mc.sigs.get(&def.id).cloned() else {
        return;
    };
    let placeholder = Function::new("", FunctionKind::Device, &[], &[]);
    let func = std::mem::replace(&mut mc.module.functions[sig.id], placeholder);
    let body = func.body;
    let loc = func.loc;
    let mut cx = FnCx {
        mc,
        func,
        fid: sig.id,
        cur: body,
        loc,
        entry_pos: 0,
        vars: HashMap::new(),
        this: None,
        sret: None,
        ret_ty: sig.ret.clone(),
        ret_slot: None,
        ret_ref: false,
        ret_flag: None,
        targets: Vec::new(),
        pretty: pretty_name(def),
        tail: false,
        decl: def,
        labels: Labels::default(),
        goto_flags: HashMap::new(),
    };
    if let Err(e) = cx.lower_body(def, &sig) {
        cx.mc.errors.push(e);
    }
    let func = cx.func;
    // On errors the module is discarded; the function goes back regardless.
    mc.module.functions[sig.id] = func;
}

fn pretty_name(def: &Node) -> String {
    // `__PRETTY_FUNCTION__` is what glibc's assert passes; the plain name is
    // the fallback for messages built here.
    def.name.clone().unwrap_or_default()
}

impl<'m, 'a> FnCx<'m, 'a> {
    /// A builder appending to the current region.
    pub fn b(&mut self) -> Builder<'_> {
        let mut b = Builder::new(&mut self.mc.module.types, &mut self.func);
        b.set_insertion_end(self.cur);
        b.set_loc(self.loc);
        b
    }

    /// Sets the location of the following ops to `n`'s.
    pub fn at(&mut self, n: &Node) {
        let l = self.mc.loc(n);
        if !l.is_unknown() {
            self.loc = l;
        }
    }

    /// An error at `n`.
    pub fn err<T>(&self, n: &Node, msg: impl Into<String>) -> R<T> {
        Err(Diagnostic::at(n, msg))
    }

    /// An `alloca private ty` at the function's entry.
    pub fn entry_alloca(&mut self, ty: TypeId) -> Value {
        let body = self.func.body;
        let pos = self.entry_pos;
        let mut b = Builder::new(&mut self.mc.module.types, &mut self.func);
        b.set_insertion_at(body, pos);
        b.set_loc(self.loc);
        let v = b.alloca(Space::Private, ty);
        self.entry_pos += 1;
        v
    }

    /// An `i1` flag at entry, initialised to false there.
    pub fn entry_flag(&mut self) -> Value {
        let i1 = self.mc.module.types.i1();
        let v = self.entry_alloca(i1);
        let body = self.func.body;
        let pos = self.entry_pos;
        let mut b = Builder::new(&mut self.mc.module.types, &mut self.func);
        b.set_insertion_at(body, pos);
        b.set_loc(self.loc);
        let f = b.bool(false);
        b.store(v, f);
        self.entry_pos += 2;
        v
    }

    /// Stores `true`/`false` into a flag.
    pub fn set_flag(&mut self, flag: Value, v: bool) {
        let mut b = self.b();
        let c = b.bool(v);
        b.store(flag, c);
    }

    /// Parses the type of node `n`.
    pub fn ty_of(&self, n: &Node) -> R<CType> {
        let q =
            n.ty.as_ref()
                .ok_or_else(|| Diagnostic::at(n, format!("{} without a type", n.kind.name())))?;
        let s = q.canonical();
        if let Some(l) = self.mc.anon_records.get(s) {
            let _ = l;
            return Ok(CType::Named(s.into()));
        }
        ctype::parse(s)
            .map(|t| self.mc.resolve_keep_volatile(&t))
            .ok_or_else(|| Diagnostic::at(n, ctype::unreadable(s)))
    }

    fn lower_body(&mut self, def: &'a Node, sig: &Sig) -> R<()> {
        self.at(def);
        let args = self.func.param_values().to_vec();
        let mut k = 0;
        if sig.sret {
            self.sret = Some(args[k]);
            k += 1;
        }
        if sig.has_this {
            self.this = Some(args[k]);
            k += 1;
        }
        self.ret_ref = sig.ret.is_ref();
        if let Some(t) = self.mc.scalar_ty(&sig.ret) {
            if !sig.sret {
                self.ret_slot = Some(self.entry_alloca(t));
            }
        }
        let params: Vec<&Node> = def
            .inner
            .iter()
            .filter(|c| c.kind == Kind::ParmVarDecl)
            .collect();
        for (p, ct) in params.iter().zip(sig.params.iter()) {
            let v = args[k];
            k += 1;
            if self.func.params[k - 1].byval.is_some() {
                self.vars.insert(p.id, (Storage::Addr(v), ct.clone()));
                continue;
            }
            let ty = self.mc.mem_ty(ct, p)?;
            let slot = self.entry_alloca(ty);
            let v = self.to_generic(v);
            self.b().store(slot, v);
            let st = if ct.is_ref() {
                Storage::Ref(slot)
            } else {
                Storage::Addr(slot)
            };
            let ct = match ct {
                CType::Ref(t) => (**t).clone(),
                t => t.clone(),
            };
            if let Some(name) = &p.name {
                let mut b = self.b();
                b.name(slot, &format!("{name}.addr"));
            }
            self.vars.insert(p.id, (st, ct));
        }
        // Constructor initialisers.
        if def.kind == Kind::CXXConstructorDecl {
            for init in def
                .inner
                .iter()
                .filter(|c| c.kind == Kind::CXXCtorInitializer)
            {
                self.ctor_init(init)?;
            }
        }
        let Some(body) = def.inner.iter().find(|c| c.kind == Kind::CompoundStmt) else {
            return self.err(def, "function without a body");
        };
        self.labels = Labels::of(body);
        self.tail = true;
        self.stmt(body)?;
        self.close_function()
    }

    fn close_function(&mut self) -> R<()> {
        let body = self.func.body;
        self.cur = body;
        let vals = match self.ret_slot {
            Some(slot) => {
                let t = self.mc.scalar_ty(&self.ret_ty.clone());
                match t {
                    Some(t) => vec![self.b().load(slot, t)],
                    None => vec![],
                }
            }
            None => vec![],
        };
        self.b().ret(vals);
        Ok(())
    }

    fn ctor_init(&mut self, init: &'a Node) -> R<()> {
        let Some(this) = self.this else {
            return Ok(());
        };
        let Some(expr) = init.inner.first() else {
            return Ok(());
        };
        #[derive(serde::Deserialize)]
        struct AnyInit {
            id: crate::ast::NodeId,
        }
        if let Some(raw) = init.extra("anyInit") {
            let f: AnyInit = serde_json::from_str(raw.get())
                .map_err(|_| Diagnostic::at(expr, "malformed constructor initialiser"))?;
            let (l, idx, ct) = self.mc.field(f.id, expr)?;
            let addr = if super::ModCx::is_half_like(&self.decl_record_type()).is_some() {
                this
            } else {
                self.b().ptr_field(this, l.ty, idx)
            };
            return self.init_into(expr, addr, &ct, Some(f.id));
        }
        if let Some(raw) = init.extra("baseInit") {
            let q: crate::ast::QualType = serde_json::from_str(raw.get())
                .map_err(|_| Diagnostic::at(expr, "malformed base initialiser"))?;
            let rec = self.decl_record_type();
            let CType::Named(rname) = rec else {
                return self.err(expr, "base initialiser outside a class");
            };
            let l = self.mc.layout(&rname, expr)?;
            let bname = q.canonical().to_string();
            let addr = match l.bases.iter().find(|(b, _)| **b == *bname) {
                Some((_, i)) => self.b().ptr_field(this, l.ty, *i),
                None => this,
            };
            return self.agg_into(expr, addr);
        }
        self.err(expr, "unsupported constructor initialiser")
    }

    /// The class type of the method being lowered.
    pub fn decl_record_type(&self) -> CType {
        // The `this` parameter's class is the record the method is in: found
        // through the record index by searching for the method.
        match self.mc.record_of_method(self.decl) {
            Some(rec) => ctype::parse(&rec).unwrap_or(CType::Named(rec.into())),
            None => CType::Void,
        }
    }

    /// Initialises the object of type `ct` at `addr` from `e`.
    pub fn init_into(
        &mut self,
        e: &'a Node,
        addr: Value,
        ct: &CType,
        _field: Option<NodeId>,
    ) -> R<()> {
        if ct.is_ref() {
            let p = self.lvalue(e)?;
            let p = self.to_generic(p);
            self.b().store(addr, p);
            return Ok(());
        }
        if self.mc.scalar_ty(ct).is_some() {
            let v = self.scalar(e)?;
            let v = self.to_generic(v);
            self.store(addr, v, ct);
            Ok(())
        } else {
            self.agg_into(e, addr)
        }
    }

    /// Stores a scalar, volatile if `ct` is.
    pub fn store(&mut self, addr: Value, v: Value, ct: &CType) {
        let vol = ct.is_volatile();
        let loc = self.loc;
        let cur = self.cur;
        let op = self.func.new_op(
            cucc_ir::OpKind::Store { volatile: vol },
            vec![addr, v],
            &[],
            vec![],
            loc,
        );
        self.func.regions[cur].ops.push(op);
    }

    /// A spacecast to `ptr<generic>` of a pointer in another space.
    pub fn to_generic(&mut self, v: Value) -> Value {
        let t = self.func.value_type(v);
        match self.mc.module.types[t].ptr_space() {
            Some(s) if s != Space::Generic => {
                let g = self.mc.generic_ptr();
                self.b().cast(CastOp::SpaceCast, v, g)
            }
            _ => v,
        }
    }

    // ---- statements ----------------------------------------------------------

    /// Lowers a statement.
    pub fn stmt(&mut self, s: &'a Node) -> R<()> {
        self.at(s);
        match &s.kind {
            Kind::CompoundStmt => self.stmts(&s.inner.iter().collect::<Vec<_>>()),
            Kind::NullStmt => Ok(()),
            Kind::DeclStmt => {
                for d in &s.inner {
                    self.local_decl(d)?;
                }
                Ok(())
            }
            Kind::ReturnStmt => self.return_stmt(s),
            Kind::BreakStmt => {
                let t = self.targets.last().copied();
                match t.and_then(|t| t.brk) {
                    Some(f) => {
                        self.set_flag(f, true);
                        Ok(())
                    }
                    None => self.err(s, "break outside a loop or switch"),
                }
            }
            Kind::ContinueStmt => {
                let t = self.targets.iter().rev().find(|t| !t.is_switch).copied();
                match t.and_then(|t| t.cont) {
                    Some(f) => {
                        self.set_flag(f, true);
                        Ok(())
                    }
                    None => self.err(s, "continue outside a loop"),
                }
            }
            Kind::IfStmt => self.if_stmt(s),
            Kind::WhileStmt => self.while_stmt(s),
            Kind::DoStmt => self.do_stmt(s),
            Kind::ForStmt => self.for_stmt(s),
            Kind::SwitchStmt => self.switch_stmt(s),
            Kind::AttributedStmt | Kind::LabelStmt => match s.inner.iter().rev().find(|c| !c.kind.name().ends_with("Attr")) {
                Some(c) => self.stmt(c),
                None => Ok(()),
            },
            Kind::GotoStmt => match self.labels.target(s) {
                Ok(bit) => {
                    let f = self.goto_flag(bit);
                    self.set_flag(f, true);
                    Ok(())
                }
                Err(why) => self.err(s, why),
            },
            Kind::CXXForRangeStmt => self.range_for_stmt(s),
            Kind::CaseStmt | Kind::DefaultStmt => {
                self.err(s, "case label outside the top level of its switch body is not supported in device code")
            }
            Kind::Other(k) if &**k == "GCCAsmStmt" => self.asm_stmt(s),
            Kind::Other(k) if &**k == "MSAsmStmt" => {
                self.err(s, "Microsoft-style inline assembly is not supported in device code")
            }
            Kind::Other(k) if &**k == "CXXTryStmt" => {
                self.err(s, "exceptions are not supported in device code")
            }
            Kind::Other(k) if &**k == "IndirectGotoStmt" => {
                self.err(s, "goto is not supported in device code")
            }
            _ if is_expr(s) => {
                self.discard(s)?;
                Ok(())
            }
            k => self.err(s, format!("statement '{}' is not supported in device code", k.name())),
        }
    }

    /// Lowers a statement list, guarding what follows a statement that may
    /// jump. Errors are collected per statement.
    fn stmts(&mut self, list: &[&'a Node]) -> R<()> {
        let start = self.cur;
        let tail = self.tail;
        let mut opened: Vec<Region> = Vec::new();
        // The jumps the statements so far may have taken.
        let mut pending = Jumps::default();
        let n = list.len();
        for (i, s) in list.iter().enumerate() {
            let here = self.labels.heading(s) & pending.gotos;
            if here != 0 {
                // A label jumped to: close the guards, clear its flags, and
                // guard what follows on the jumps still pending.
                for r in opened.drain(..).rev() {
                    self.cur = r;
                    self.b().yield_(vec![]);
                }
                self.cur = start;
                for b in bits(here) {
                    let f = self.goto_flag(b);
                    self.set_flag(f, false);
                }
                pending.gotos &= !here;
                if pending.any() {
                    let r = self.guard(pending);
                    opened.push(r);
                }
            }
            self.tail = tail && i + 1 == n;
            if let Err(e) = self.stmt(s) {
                self.mc.errors.push(e);
            }
            let j = jumps(s, &self.labels);
            pending = pending.union(j);
            if i + 1 < n && j.any() {
                let r = self.guard(j);
                opened.push(r);
            }
        }
        self.tail = tail;
        for r in opened.into_iter().rev() {
            self.cur = r;
            self.b().yield_(vec![]);
        }
        self.cur = start;
        Ok(())
    }

    /// The "no jump taken" condition for the flags `j` may set, or `None`.
    fn continuing(&mut self, j: Jumps) -> Option<Value> {
        let mut flags = Vec::new();
        if j.ret {
            if let Some(f) = self.ret_flag {
                flags.push(f);
            }
        }
        if j.brk {
            if let Some(f) = self.targets.last().and_then(|t| t.brk) {
                flags.push(f);
            }
        }
        if j.cont {
            if let Some(f) = self
                .targets
                .iter()
                .rev()
                .find(|t| !t.is_switch)
                .and_then(|t| t.cont)
            {
                flags.push(f);
            }
        }
        for b in bits(j.gotos) {
            flags.push(self.goto_flag(b));
        }
        if flags.is_empty() {
            return None;
        }
        let i1 = self.mc.module.types.i1();
        let mut b = self.b();
        let mut any = b.load(flags[0], i1);
        for f in &flags[1..] {
            let x = b.load(*f, i1);
            any = b.binary(cucc_ir::BinOp::Or, any, x);
        }
        let t = b.bool(true);
        Some(b.binary(cucc_ir::BinOp::Xor, any, t))
    }

    /// Emits `if (no flag of j set) { ... }` and moves into its then-region,
    /// which the caller closes.
    fn guard(&mut self, j: Jumps) -> Region {
        let c = match self.continuing(j) {
            Some(c) => c,
            None => self.b().bool(true),
        };
        let (_, t, e) = self.b().create_if(c, &[]);
        self.cur = e;
        self.b().yield_(vec![]);
        self.cur = t;
        t
    }

    fn return_stmt(&mut self, s: &'a Node) -> R<()> {
        if let Some(e) = s.inner.first() {
            if let Some(dst) = self.sret {
                self.agg_into(e, dst)?;
            } else if let Some(slot) = self.ret_slot {
                let v = if self.ret_ref {
                    self.lvalue(e)?
                } else {
                    self.scalar(e)?
                };
                let v = self.to_generic(v);
                self.b().store(slot, v);
            } else {
                self.discard(e)?;
            }
        }
        if !self.tail || !self.targets.is_empty() {
            let f = match self.ret_flag {
                Some(f) => f,
                None => {
                    let f = self.entry_flag();
                    self.ret_flag = Some(f);
                    f
                }
            };
            self.set_flag(f, true);
        }
        Ok(())
    }

    /// Lowers the optional init statement and condition variable that come
    /// first among an `if`'s or a `switch`'s children (`has` reads the
    /// node's flags).
    fn init_and_var(
        &mut self,
        it: &mut std::slice::Iter<'a, Node>,
        has: impl Fn(&str) -> bool,
    ) -> R<()> {
        if has("hasInit") {
            if let Some(i) = it.next() {
                self.stmt(i)?;
            }
        }
        if has("hasVar") {
            if let Some(d) = it.next() {
                self.stmt(d)?;
            }
        }
        Ok(())
    }

    fn if_stmt(&mut self, s: &'a Node) -> R<()> {
        let has = |k: &str| s.extra(k).map(|v| v.get() == "true").unwrap_or(false);
        let mut it = s.inner.iter();
        self.init_and_var(&mut it, has)?;
        let cond = it
            .next()
            .ok_or_else(|| Diagnostic::at(s, "if without a condition"))?;
        let then_s = it.next();
        let else_s = if has("hasElse") { it.next() } else { None };
        if s.extra("isConstexpr").is_some() {
            // `if constexpr`: clang folded the condition.
            if let Some(v) = super::records::const_int_of(cond) {
                return match (v != 0, then_s, else_s) {
                    (true, Some(t), _) => self.stmt(t),
                    (false, _, Some(e)) => self.stmt(e),
                    _ => Ok(()),
                };
            }
        }
        let c = self.cond(cond)?;
        let (_, t, e) = self.b().create_if(c, &[]);
        let saved = self.cur;
        for (r, st) in [(t, then_s), (e, else_s)] {
            self.cur = r;
            if let Some(st) = st {
                if let Err(err) = self.stmt(st) {
                    self.mc.errors.push(err);
                }
            }
            self.b().yield_(vec![]);
        }
        self.cur = saved;
        Ok(())
    }

    /// Lowers a condition to `i1`.
    pub fn cond(&mut self, e: &'a Node) -> R<Value> {
        let ct = self.ty_of(e)?;
        let v = self.scalar(e)?;
        self.to_bool(v, &ct, e)
    }

    /// Sets up the flags of a loop whose body is `body`.
    /// The flag of the label with bit `bit`, made at entry on first use.
    fn goto_flag(&mut self, bit: u32) -> Value {
        if let Some(&f) = self.goto_flags.get(&bit) {
            return f;
        }
        let f = self.entry_flag();
        self.goto_flags.insert(bit, f);
        f
    }

    fn loop_target(&mut self, body: &Node, is_switch: bool) -> Target {
        let j = jumps(body, &self.labels);
        let brk = j.brk.then(|| self.entry_flag());
        let cont = (j.cont && !is_switch).then(|| self.entry_flag());
        if let Some(f) = brk {
            self.set_flag(f, false);
        }
        Target {
            brk,
            cont,
            is_switch,
        }
    }

    /// `!brk && !ret ? cond : false` in the current region.
    fn loop_cond(&mut self, t: Target, body_jumps: Jumps, cond: Option<&'a Node>) -> R<Value> {
        let mut flags = Vec::new();
        if let Some(b) = t.brk {
            flags.push(b);
        }
        if body_jumps.ret {
            if let Some(r) = self.ret_flag {
                flags.push(r);
            }
        }
        for b in bits(body_jumps.gotos) {
            flags.push(self.goto_flag(b));
        }
        let i1 = self.mc.module.types.i1();
        let go = if flags.is_empty() {
            None
        } else {
            let mut b = self.b();
            let mut any = b.load(flags[0], i1);
            for f in &flags[1..] {
                let x = b.load(*f, i1);
                any = b.binary(cucc_ir::BinOp::Or, any, x);
            }
            let tr = b.bool(true);
            Some(b.binary(cucc_ir::BinOp::Xor, any, tr))
        };
        match (go, cond) {
            (None, None) => Ok(self.b().bool(true)),
            (Some(g), None) => Ok(g),
            (None, Some(c)) => self.cond(c),
            (Some(g), Some(c)) => {
                let (op, tr, el) = self.b().create_if(g, &[i1]);
                let saved = self.cur;
                self.cur = tr;
                let v = self.cond(c)?;
                self.b().yield_(vec![v]);
                self.cur = el;
                let f = self.b().bool(false);
                self.b().yield_(vec![f]);
                self.cur = saved;
                Ok(self.func.ops[op].results[0])
            }
        }
    }

    /// A loop; `body` is the body statement, preceded by a declaration that
    /// runs first in every iteration (a range-for's loop variable).
    fn while_like(
        &mut self,
        s: &'a Node,
        cond: Option<&'a Node>,
        body: (Option<&'a Node>, &'a Node),
        inc: Option<&'a Node>,
        do_while: bool,
    ) -> R<()> {
        let (var, body) = body;
        let t = self.loop_target(body, false);
        // The return flag must exist before the loop if the body returns.
        let bj = jumps(body, &self.labels);
        if bj.ret && self.ret_flag.is_none() {
            let f = self.entry_flag();
            self.ret_flag = Some(f);
        }
        let (_, before, after) = self.b().create_while(&[], &[]);
        let saved = self.cur;
        let tail = self.tail;
        self.tail = false;
        self.targets.push(t);
        self.at(s);
        if do_while {
            self.cur = before;
            if let Some(c) = t.cont {
                self.set_flag(c, false);
            }
            let r = self.stmt(body);
            if let Err(e) = r {
                self.mc.errors.push(e);
            }
            let c = self.loop_cond(t, bj, cond)?;
            self.b().condition(c, vec![]);
            self.cur = after;
            self.b().yield_(vec![]);
        } else {
            self.cur = before;
            let c = self.loop_cond(t, bj, cond)?;
            self.b().condition(c, vec![]);
            self.cur = after;
            if let Some(c) = t.cont {
                self.set_flag(c, false);
            }
            if let Some(v) = var {
                self.stmt(v)?;
            }
            if let Err(e) = self.stmt(body) {
                self.mc.errors.push(e);
            }
            if let Some(inc) = inc {
                // `continue` still runs the increment; `break`/`return` do not.
                let j = Jumps {
                    ret: bj.ret,
                    brk: bj.brk,
                    cont: false,
                    gotos: bj.gotos,
                };
                if j.any() {
                    let r = self.guard(j);
                    self.discard(inc)?;
                    self.cur = r;
                    self.b().yield_(vec![]);
                    self.cur = after;
                } else {
                    self.discard(inc)?;
                }
            }
            self.b().yield_(vec![]);
        }
        self.targets.pop();
        self.tail = tail;
        self.cur = saved;
        Ok(())
    }

    fn while_stmt(&mut self, s: &'a Node) -> R<()> {
        let has_var = s.extra("hasVar").is_some();
        if has_var {
            return self.err(
                s,
                "a declaration in a while condition is not supported in device code",
            );
        }
        let (cond, body) = match s.inner.as_slice() {
            [c, b] => (c, b),
            _ => return self.err(s, "malformed while statement"),
        };
        self.while_like(s, Some(cond), (None, body), None, false)
    }

    fn do_stmt(&mut self, s: &'a Node) -> R<()> {
        let (body, cond) = match s.inner.as_slice() {
            [b, c] => (b, c),
            _ => return self.err(s, "malformed do statement"),
        };
        self.while_like(s, Some(cond), (None, body), None, true)
    }

    fn for_stmt(&mut self, s: &'a Node) -> R<()> {
        let [init, var, cond, inc, body] = s.inner.as_slice() else {
            return self.err(s, "malformed for statement");
        };
        let present = |n: &'a Node| (n.kind != Kind::default()).then_some(n);
        if let Some(i) = present(init) {
            self.stmt(i)?;
        }
        if present(var).is_some() {
            return self.err(
                var,
                "a declaration in a for condition is not supported in device code",
            );
        }
        self.while_like(s, present(cond), (None, body), present(inc), false)
    }

    /// `for (decl : range) body` as C++ defines it: `auto &&__range =
    /// range; auto __begin = begin-expr, __end = end-expr; for (; __begin
    /// != __end; ++__begin) { decl = *__begin; body }`, which clang spells
    /// out as the statement's children.
    fn range_for_stmt(&mut self, s: &'a Node) -> R<()> {
        let [init, range, begin, end, cond, inc, var, body] = s.inner.as_slice() else {
            return self.err(s, "malformed range-based for statement");
        };
        let present = |n: &'a Node| (n.kind != Kind::default()).then_some(n);
        for d in [init, range, begin, end] {
            if let Some(d) = present(d) {
                self.stmt(d)?;
            }
        }
        self.while_like(s, present(cond), (present(var), body), present(inc), false)
    }

    fn switch_stmt(&mut self, s: &'a Node) -> R<()> {
        let has = |k: &str| s.extra(k).is_some();
        let mut it = s.inner.iter();
        self.init_and_var(&mut it, has)?;
        let cond = it
            .next()
            .ok_or_else(|| Diagnostic::at(s, "switch without a condition"))?;
        let body = it
            .next()
            .ok_or_else(|| Diagnostic::at(s, "switch without a body"))?;
        let v = self.scalar(cond)?;
        // Segments: labels and the statements up to the next label.
        struct Seg<'a> {
            labels: Vec<i64>,
            default: bool,
            stmts: Vec<&'a Node>,
        }
        let mut segs: Vec<Seg<'a>> = Vec::new();
        let items: Vec<&'a Node> = if body.kind == Kind::CompoundStmt {
            body.inner.iter().collect()
        } else {
            vec![body]
        };
        for item in items {
            let mut cur = item;
            let mut labels = Vec::new();
            let mut default = false;
            let mut labelled = false;
            loop {
                match cur.kind {
                    Kind::CaseStmt => {
                        labelled = true;
                        let val = cur
                            .inner
                            .first()
                            .and_then(super::records::const_int_of)
                            .ok_or_else(|| Diagnostic::at(cur, "case value is not a constant"))?;
                        if cur.extra("isGNURange").is_some() || cur.inner.len() > 2 {
                            return self.err(cur, "case ranges are not supported in device code");
                        }
                        labels.push(val);
                        match cur.inner.get(1) {
                            Some(n) => cur = n,
                            None => break,
                        }
                    }
                    Kind::DefaultStmt => {
                        labelled = true;
                        default = true;
                        match cur.inner.first() {
                            Some(n) => cur = n,
                            None => break,
                        }
                    }
                    _ => break,
                }
            }
            let stmt = (!matches!(cur.kind, Kind::CaseStmt | Kind::DefaultStmt)).then_some(cur);
            if labelled {
                segs.push(Seg {
                    labels,
                    default,
                    stmts: stmt.into_iter().collect(),
                });
            } else if let Some(last) = segs.last_mut() {
                last.stmts.extend(stmt);
            }
            // Statements before the first label are unreachable.
        }
        let ct = self.ty_of(cond)?;
        let vt = self.func.value_type(v);
        let _ = ct;
        let t = self.loop_target(body, true);
        let matched = self.entry_flag();
        self.set_flag(matched, false);
        // Whether any case label matches (for `default`).
        let mut any: Option<Value> = None;
        if segs.iter().any(|g| g.default) {
            let all: Vec<i64> = segs.iter().flat_map(|g| g.labels.clone()).collect();
            for l in all {
                let mut b = self.b();
                let k = b.const_int(vt, l);
                let eq = b.cmp(CmpPred::Eq, v, k);
                any = Some(match any {
                    Some(a) => b.binary(cucc_ir::BinOp::Or, a, eq),
                    None => eq,
                });
            }
        }
        let saved = self.cur;
        let tail = self.tail;
        self.tail = false;
        self.targets.push(t);
        let mut opened = Vec::new();
        let n = segs.len();
        for (i, g) in segs.iter().enumerate() {
            let i1 = self.mc.module.types.i1();
            let mut b = self.b();
            let mut c = b.load(matched, i1);
            for l in &g.labels {
                let k = b.const_int(vt, *l);
                let eq = b.cmp(CmpPred::Eq, v, k);
                c = b.binary(cucc_ir::BinOp::Or, c, eq);
            }
            if g.default {
                let none = match any {
                    Some(a) => {
                        let tr = b.bool(true);
                        b.binary(cucc_ir::BinOp::Xor, a, tr)
                    }
                    None => b.bool(true),
                };
                c = b.binary(cucc_ir::BinOp::Or, c, none);
            }
            let (_, tr, el) = b.create_if(c, &[]);
            let outer = self.cur;
            self.cur = el;
            self.b().yield_(vec![]);
            self.cur = tr;
            self.set_flag(matched, true);
            if let Err(e) = self.stmts(&g.stmts) {
                self.mc.errors.push(e);
            }
            self.b().yield_(vec![]);
            self.cur = outer;
            let mut j = Jumps::default();
            for st in &g.stmts {
                j = j.union(jumps(st, &self.labels));
            }
            if i + 1 < n && j.any() {
                // `continue` leaves the switch too: guard on the loop's flag.
                let r = self.guard(j);
                opened.push(r);
            }
        }
        self.targets.pop();
        for r in opened.into_iter().rev() {
            self.cur = r;
            self.b().yield_(vec![]);
        }
        self.cur = saved;
        self.tail = tail;
        Ok(())
    }

    /// A local declaration (`DeclStmt` member).
    fn local_decl(&mut self, d: &'a Node) -> R<()> {
        match d.kind {
            Kind::VarDecl => {}
            Kind::TypedefDecl
            | Kind::TypeAliasDecl
            | Kind::CXXRecordDecl
            | Kind::RecordDecl
            | Kind::EnumDecl
            | Kind::StaticAssertDecl
            | Kind::UsingDecl
            | Kind::UsingDirectiveDecl => return Ok(()),
            _ => return Ok(()),
        }
        self.at(d);
        let ct = self.ty_of(d)?;
        let is_static = d.storage_class.as_deref() == Some("static");
        let is_extern = d.storage_class.as_deref() == Some("extern");
        if d.has_attr(&Kind::CUDASharedAttr) && is_extern {
            self.vars.insert(d.id, (Storage::DynShared, ct));
            return Ok(());
        }
        if d.has_attr(&Kind::CUDASharedAttr) || is_static || is_extern {
            let g = self.mc.global_for(d)?;
            let space = self.mc.module.globals[g].space;
            self.vars.insert(d.id, (Storage::Global(g, space), ct));
            return Ok(());
        }
        let init = d.inner.iter().find(|c| is_expr(c));
        if let CType::Ref(inner) = ct.strip() {
            let gp = self.mc.generic_ptr();
            let slot = self.entry_alloca(gp);
            let inner = (**inner).clone();
            if let Some(e) = init {
                let p = self.lvalue(e)?;
                let p = self.to_generic(p);
                self.b().store(slot, p);
            }
            self.vars.insert(d.id, (Storage::Ref(slot), inner));
            return Ok(());
        }
        let mut ct = ct;
        if let CType::Array(el, None) = ct.strip() {
            // `int a[] = {...}`: the length comes from the initialiser.
            if let Some(e) = init {
                let et = self.ty_of(e)?;
                if let CType::Array(_, Some(n)) = et.strip() {
                    ct = CType::Array(el.clone(), Some(*n));
                }
            }
        }
        let ty = self.mc.mem_ty(&ct, d)?;
        let slot = self.entry_alloca(ty);
        if let Some(name) = &d.name {
            let mut b = self.b();
            b.name(slot, name);
        }
        self.vars.insert(d.id, (Storage::Addr(slot), ct.clone()));
        if let Some(e) = init {
            self.init_into(e, slot, &ct, None)?;
        }
        Ok(())
    }
}

/// Unused-location helper for diagnostics built from IR locations.
pub fn diag_loc_of(mc: &ModCx<'_>, l: Loc) -> DiagLoc {
    DiagLoc {
        file: mc
            .module
            .files
            .get(l.file as usize)
            .cloned()
            .unwrap_or_default(),
        line: l.line,
        col: l.col,
    }
}
