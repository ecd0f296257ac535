//! Lowering a parsed PTX module to cucc IR.
//!
//! Conventions (mirroring the CUDA frontend, see `docs/ptx.md`):
//! - every register is a private `alloca` of its declared type; `mem2reg`
//!   promotes them. Reads and writes convert between the register's type
//!   and the instruction's (bitcasts, truncation, extension);
//! - global, local, constant and generic addresses are integers holding the
//!   pointer (`ptrtoint`/`inttoptr`); shared-space addresses are offsets into
//!   the module's shared window: the static `.shared` variables laid out in
//!   one shared global, followed by the dynamic shared memory;
//! - kernel parameters are IR parameters in PTX order (aggregates `byval`);
//!   `.func` parameters and return values are passed as pointers to the
//!   caller's `.param` storage;
//! - control flow is structured by [`super::structure`] into `if` and
//!   `while` ops steered by one `i32` jump variable.

use std::collections::{BTreeSet, HashMap};

use cucc_ir::{
    AtomicOp, BarrierReduceKind, BinOp, Builder, CastOp, CmpPred, Dim, FuncId,
    Function as IrFunction, FunctionKind, Global, GlobalId, GlobalKind, Loc, MemScope, Module,
    OpKind, ParamAttrs, Region, ShuffleMode, Space, TexKind, Type, TypeId, UnOp, Value, VoteKind,
};

mod arith;
mod bitops;
mod bits;
mod call;
mod compare;
mod convert;
mod dot;
mod floatops;
mod half;
mod inst;
mod memory;
mod provenance;
mod simd;
mod warp;

use super::ast::*;
use super::inst::{Inst, Opcode, TexGeom};
use super::structure::{analyze, Cfg, Edge, Plan};
use super::{Error, Pos, Result};

/// Name of the shared global holding the module's static `.shared` variables.
pub const SHARED_WINDOW: &str = "__cucc_ptx_shared";

fn err<T>(pos: Pos, msg: impl Into<String>) -> Result<T> {
    Err(Error::new(pos, msg))
}

/// What a module-scope name refers to.
#[derive(Clone, Copy, Debug)]
enum ModSym {
    /// A global or constant variable (or texture reference).
    Global(GlobalId, Space),
    /// A static shared variable at this offset of the window.
    Shared(u64),
    /// The dynamic shared memory (offset `static size` of the window).
    DynShared,
}

struct ModCx<'p> {
    module: Module,
    file: u32,
    /// The module's file ids of the `.file` numbers `.loc` lines name.
    src_files: HashMap<u32, u32>,
    syms: HashMap<String, ModSym>,
    /// Bytes of module variables with initialisers (strings for printf/assert).
    data: HashMap<String, Vec<u8>>,
    funcs: HashMap<String, (FuncId, &'p Function)>,
    shared_size: u64,
    has_dynamic: bool,
    window: Option<GlobalId>,
    /// Static shared variables: name -> (window offset, bytes, alignment).
    shared_vars: HashMap<String, (u64, u64, u64)>,
    /// When every shared address derives from one variable
    /// ([`provenance`]): per function, the variable each deriving register
    /// points into; each variable is then its own global
    /// (`shared_globals`).
    split: Option<HashMap<String, HashMap<String, String>>>,
    shared_globals: HashMap<String, GlobalId>,
    /// Functions whose address the module takes, with the number that is
    /// their pointer's value ([`call::function_numbers`]).
    fn_numbers: HashMap<String, u64>,
}

/// Lowers every entry of `m` and the functions it calls.
pub fn lower_module(m: &PtxModule, file: &str) -> Result<Module> {
    let mut cx = ModCx {
        module: Module::new(),
        file: 0,
        src_files: HashMap::new(),
        syms: HashMap::new(),
        data: HashMap::new(),
        funcs: HashMap::new(),
        shared_size: 0,
        has_dynamic: false,
        window: None,
        shared_vars: HashMap::new(),
        split: None,
        shared_globals: HashMap::new(),
        fn_numbers: call::function_numbers(m),
    };
    cx.file = cx.module.file_id(file);
    for (n, path) in &m.files {
        let id = cx.module.file_id(path);
        cx.src_files.insert(*n, id);
    }
    let mut tex_dims: HashMap<String, u8> = HashMap::new();
    for f in &m.functions {
        for s in f.body.iter().flatten() {
            if let Stmt::Inst(i) = s {
                if i.op == Opcode::Tex {
                    if let Some(Operand::Tex(b, _)) = i.args.get(1) {
                        if let Operand::Sym(n) = &**b {
                            let d = match i.mods.geom {
                                Some(TexGeom::D3) => 3,
                                Some(TexGeom::D2) => 2,
                                _ => 1,
                            };
                            tex_dims.insert(n.clone(), d);
                        }
                    }
                }
            }
        }
    }
    for v in &m.vars {
        cx.module_var(v, &tex_dims)?;
    }
    // Function-scope shared variables live in the window too.
    for f in &m.functions {
        for s in f.body.iter().flatten() {
            if let Stmt::Var(v) = s {
                if v.space == StateSpace::Shared {
                    cx.shared_var(v)?;
                }
            }
        }
    }
    // One global per shared variable where every shared address derives
    // from one (PTX aligns at most to 16; the IR's types to 8).
    let is_shared = |n: &str| matches!(cx.syms.get(n), Some(ModSym::Shared(_) | ModSym::DynShared));
    cx.split = provenance::split_shared(&m.functions, &is_shared)
        .filter(|_| cx.shared_vars.values().all(|&(_, _, align)| align <= 8));
    if cx.shared_size > 0 && cx.split.is_none() {
        let i64t = cx.module.types.i64();
        let ty = cx.module.types.array(i64t, cx.shared_size.div_ceil(8));
        cx.window = Some(cx.shared_global(SHARED_WINDOW, ty));
    }
    if cx.split.is_some() {
        let mut vars: Vec<(String, (u64, u64, u64))> = cx
            .shared_vars
            .iter()
            .map(|(n, v)| (n.clone(), *v))
            .collect();
        vars.sort_by_key(|(_, (off, _, _))| *off);
        for (name, (_, bytes, align)) in vars {
            let elem = match align {
                8 => cx.module.types.i64(),
                4 => cx.module.types.int(32),
                2 => cx.module.types.int(16),
                _ => cx.module.types.i8(),
            };
            let ty = cx
                .module
                .types
                .array(elem, bytes.div_ceil(align.max(1)).max(1));
            let g = cx.shared_global(&name, ty);
            cx.shared_globals.insert(name, g);
        }
    }
    // Signatures first (calls may precede definitions), then bodies.
    let mut defined = Vec::new();
    for f in &m.functions {
        if f.body.is_none() {
            continue;
        }
        if cx.funcs.contains_key(&f.name) {
            return err(f.pos, format!("function `{}` is defined twice", f.name));
        }
        let id = cx.signature(f)?;
        cx.funcs.insert(f.name.clone(), (id, f));
        defined.push((id, f));
    }
    for (id, f) in defined {
        lower_function(&mut cx, id, f)?;
    }
    // `ld.volatile.shared`/`st.volatile.shared` of warp-synchronous code
    // run as the lockstep they were written for.
    cucc_ir::lockstep::insert_warp_barriers(&mut cx.module);
    Ok(cx.module)
}

fn ir_type(types: &mut cucc_ir::Types, t: PtxType) -> TypeId {
    match t {
        PtxType::Pred => types.i1(),
        PtxType::Int { bits, .. } => types.int(bits),
        PtxType::Float {
            bits: 16,
            brain: false,
        } => types.f16(),
        PtxType::Float {
            bits: 16,
            brain: true,
        } => types.bf16(),
        PtxType::Float { bits: 32, .. } => types.f32(),
        PtxType::Float { .. } => types.f64(),
        PtxType::TexRef => types.i64(),
    }
}

/// An array type of `bytes` bytes aligned to `align` (at most 8).
fn byte_array(types: &mut cucc_ir::Types, bytes: u64, align: u64) -> TypeId {
    let a = [8u64, 4, 2, 1]
        .into_iter()
        .find(|&a| a <= align.max(1) && bytes % a == 0)
        .unwrap_or(1);
    let elem = types.int((a * 8) as u8);
    types.array(elem, bytes / a)
}

impl<'p> ModCx<'p> {
    fn loc(&self, p: Pos) -> Loc {
        Loc::new(self.file, p.line, p.col)
    }

    /// An instruction's location: its CUDA source line when the PTX
    /// carries one (`.loc` after a `.file`, nvcc's `-lineinfo`), else its
    /// PTX line.
    fn inst_loc(&self, i: &Inst) -> Loc {
        match i.src {
            Some((f, line, col)) if line > 0 => match self.src_files.get(&f) {
                Some(&file) => Loc::new(file, line, col),
                None => self.loc(i.pos),
            },
            _ => self.loc(i.pos),
        }
    }

    fn module_var(&mut self, v: &VarDecl, tex_dims: &HashMap<String, u8>) -> Result<()> {
        if self.syms.contains_key(&v.name) {
            return err(v.pos, format!("`{}` is declared twice", v.name));
        }
        match v.space {
            StateSpace::Shared => return self.shared_var(v),
            StateSpace::Global | StateSpace::Const | StateSpace::Tex => {}
            other => {
                return err(
                    v.pos,
                    format!("module variables in {other:?} space are not supported"),
                )
            }
        }
        if v.ty == PtxType::TexRef || v.space == StateSpace::Tex {
            let f32t = self.module.types.f32();
            let dims = tex_dims.get(&v.name).copied().unwrap_or(1);
            let g = self.module.add_global(Global {
                kind: GlobalKind::Texture { dims },
                loc: self.loc(v.pos),
                ..Global::new(v.name.clone(), f32t, Space::Global)
            });
            self.syms
                .insert(v.name.clone(), ModSym::Global(g, Space::Global));
            return Ok(());
        }
        if v.external {
            return err(
                v.pos,
                format!("external variable `{}` is not supported", v.name),
            );
        }
        if v.dims.iter().any(|d| d.is_none()) {
            return err(
                v.pos,
                format!("unsized array `{}` is not supported", v.name),
            );
        }
        let count = v.count();
        let esize = v.ty.bytes();
        let bytes = count.saturating_mul(esize);
        if bytes > (1 << 32) {
            return err(v.pos, format!("variable `{}` is too large", v.name));
        }
        let ty = if v.dims.is_empty() {
            ir_type(&mut self.module.types, v.ty)
        } else if esize == 1 {
            byte_array(&mut self.module.types, bytes, v.align.unwrap_or(1))
        } else {
            let e = ir_type(&mut self.module.types, v.ty);
            self.module.types.array(e, count)
        };
        let init = match &v.init {
            None => None,
            Some(_) if bytes > 1 << 26 => {
                return err(
                    v.pos,
                    format!("initialised variable `{}` is too large", v.name),
                );
            }
            Some(items) => {
                let mut out = Vec::with_capacity(bytes as usize);
                for it in items {
                    match it {
                        Init::Num(n) => {
                            let b = num_bits(*n, v.ty);
                            out.extend_from_slice(&b.to_le_bytes()[..esize as usize]);
                        }
                        Init::Addr(s, 0) if esize == 8 && self.fn_numbers.contains_key(s) => {
                            out.extend_from_slice(&self.fn_numbers[s].to_le_bytes());
                        }
                        Init::Addr(s, _) => {
                            return err(
                                v.pos,
                                format!("initialiser with the address of `{s}` is not supported"),
                            );
                        }
                    }
                }
                if out.len() as u64 > bytes {
                    return err(v.pos, format!("too many initialisers for `{}`", v.name));
                }
                out.resize(bytes as usize, 0);
                self.data.insert(v.name.clone(), out.clone());
                Some(out)
            }
        };
        let space = if v.space == StateSpace::Const {
            Space::Constant
        } else {
            Space::Global
        };
        let g = self.module.add_global(Global {
            init,
            loc: self.loc(v.pos),
            ..Global::new(v.name.clone(), ty, space)
        });
        self.syms.insert(v.name.clone(), ModSym::Global(g, space));
        Ok(())
    }

    /// A shared global of type `ty` named `name`.
    fn shared_global(&mut self, name: &str, ty: cucc_ir::TypeId) -> GlobalId {
        self.module.add_global(Global::new(name, ty, Space::Shared))
    }

    fn shared_var(&mut self, v: &VarDecl) -> Result<()> {
        if self.syms.contains_key(&v.name) {
            return err(v.pos, format!("`{}` is declared twice", v.name));
        }
        if v.init.is_some() {
            return err(v.pos, "shared variables cannot have initialisers");
        }
        if v.external || v.dims.iter().any(|d| d.is_none()) {
            self.has_dynamic = true;
            self.syms.insert(v.name.clone(), ModSym::DynShared);
            return Ok(());
        }
        let align = v.align.unwrap_or(v.ty.bytes()).clamp(1, 4096);
        let bytes = v.count().saturating_mul(v.ty.bytes());
        if bytes > (1 << 31) {
            return err(v.pos, format!("shared variable `{}` is too large", v.name));
        }
        let off = self.shared_size.div_ceil(align) * align;
        self.shared_size = off + bytes;
        self.syms.insert(v.name.clone(), ModSym::Shared(off));
        self.shared_vars.insert(v.name.clone(), (off, bytes, align));
        Ok(())
    }

    fn signature(&mut self, f: &Function) -> Result<FuncId> {
        let mut tys = Vec::new();
        let mut attrs = Vec::new();
        if f.entry {
            if !f.rets.is_empty() {
                return err(f.pos, "an entry cannot return values");
            }
            for p in &f.params {
                let mut a = ParamAttrs::default();
                if p.array.is_some() {
                    let t = byte_array(&mut self.module.types, p.bytes(), p.align.unwrap_or(1));
                    a.byval = Some(t);
                    tys.push(self.module.types.ptr(Space::Private));
                } else if p.ty == PtxType::Pred {
                    return err(p.pos, "predicate parameters are not supported");
                } else {
                    tys.push(ir_type(&mut self.module.types, p.ty));
                }
                attrs.push(a);
            }
        } else {
            for _ in f.rets.iter().chain(&f.params) {
                tys.push(self.module.types.ptr(Space::Private));
                attrs.push(ParamAttrs::default());
            }
        }
        let kind = if f.entry {
            FunctionKind::Kernel
        } else {
            FunctionKind::Device
        };
        let mut func = IrFunction::new(&f.name, kind, &tys, &[]);
        func.params = attrs;
        func.loc = self.loc(f.pos);
        Ok(self.module.add_function(func))
    }
}

/// The bits of literal `n` used as a value of type `t`.
fn num_bits(n: Num, t: PtxType) -> u64 {
    match (n, t) {
        (Num::Int(i), PtxType::Float { bits: 32, .. }) => u64::from((i as f32).to_bits()),
        (Num::Int(i), PtxType::Float { bits: 64, .. }) => (i as f64).to_bits(),
        (Num::Int(i), _) => i as u64,
        (Num::F32(b), PtxType::Float { bits: 64, .. }) => f64::from(f32::from_bits(b)).to_bits(),
        (Num::F32(b), _) => u64::from(b),
        (Num::F64(b), PtxType::Float { bits: 32, .. }) => {
            u64::from((f64::from_bits(b) as f32).to_bits())
        }
        (Num::F64(b), _) => b,
        (Num::Dec(d), PtxType::Float { bits: 32, .. }) => u64::from((d as f32).to_bits()),
        (Num::Dec(d), PtxType::Float { bits: 64, .. }) => d.to_bits(),
        (Num::Dec(d), _) => d as i64 as u64,
    }
}

// ------------------------------------------------------------------ functions

/// One element of a basic block.
#[derive(Clone, Copy)]
enum Item<'p> {
    Inst(&'p Inst),
    Decl(&'p VarDecl),
}

/// How a basic block ends.
#[derive(Clone, Debug)]
enum Term {
    Goto(usize),
    /// `@[!]p bra taken` falling through to `next`.
    Cond {
        pred: String,
        neg: bool,
        taken: usize,
        next: usize,
        pos: Pos,
    },
    /// The function's single exit.
    Return,
    /// `brx.idx r, table`: to `targets[r]`.
    Switch {
        reg: Operand,
        targets: Vec<usize>,
        pos: Pos,
    },
}

struct Block<'p> {
    items: Vec<Item<'p>>,
    term: Term,
}

/// A local name's storage.
#[derive(Clone, Copy, Debug)]
enum Local {
    /// A register: its alloca and type.
    Reg(Value, TypeId),
    /// Addressable private storage (`.local` arrays, `.param` call slots,
    /// parameters): the pointer.
    Mem(Value),
}

/// A construct of the structured output, innermost last.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ctx {
    Block(usize),
    Loop(usize),
}

struct FnCx<'m, 'p> {
    mc: &'m mut ModCx<'p>,
    func: IrFunction,
    f: &'p Function,
    cur: Region,
    entry_pos: usize,
    loc: Loc,
    locals: HashMap<String, Local>,
    /// Kernel scalar parameters: name -> (value, PTX type).
    kparams: HashMap<String, (Value, PtxType)>,
    /// `.func` parameter pointers by name.
    fparams: HashMap<String, Value>,
    blocks: Vec<Block<'p>>,
    exit: usize,
    plan: Option<Plan>,
    next: Option<Value>,
    pending: BTreeSet<usize>,
    carry: Option<Value>,
    /// Definitions of each register (for tracing printf/assert strings).
    defs: HashMap<String, Vec<&'p Inst>>,
    /// The operand last stored to each call `.param` slot.
    param_src: HashMap<String, Operand>,
}

fn lower_function<'p>(mc: &mut ModCx<'p>, id: FuncId, f: &'p Function) -> Result<()> {
    let placeholder = IrFunction::new("", FunctionKind::Device, &[], &[]);
    let func = std::mem::replace(&mut mc.module.functions[id], placeholder);
    let body = func.body;
    let loc = mc.loc(f.pos);
    let mut cx = FnCx {
        mc,
        func,
        f,
        cur: body,
        entry_pos: 0,
        loc,
        locals: HashMap::new(),
        kparams: HashMap::new(),
        fparams: HashMap::new(),
        blocks: Vec::new(),
        exit: 0,
        plan: None,
        next: None,
        pending: BTreeSet::new(),
        carry: None,
        defs: HashMap::new(),
        param_src: HashMap::new(),
    };
    let r = cx.run();
    let func = cx.func;
    mc.module.functions[id] = func;
    r
}

/// `binary` with an `i32` constant as its right operand, the form most of
/// the bit manipulations take.
trait BinaryImm {
    fn binary_imm(&mut self, op: BinOp, a: Value, k: i32) -> Value;
}

impl BinaryImm for Builder<'_> {
    fn binary_imm(&mut self, op: BinOp, a: Value, k: i32) -> Value {
        let c = self.i32(k);
        self.binary(op, a, c)
    }
}

impl<'m, 'p> FnCx<'m, 'p> {
    fn b(&mut self) -> Builder<'_> {
        let mut b = Builder::new(&mut self.mc.module.types, &mut self.func);
        b.set_insertion_end(self.cur);
        b.set_loc(self.loc);
        b
    }

    fn types(&mut self) -> &mut cucc_ir::Types {
        &mut self.mc.module.types
    }

    fn entry_alloca(&mut self, ty: TypeId) -> Value {
        let body = self.func.body;
        let pos = self.entry_pos;
        let mut b = Builder::new(&mut self.mc.module.types, &mut self.func);
        b.set_insertion_at(body, pos);
        b.set_loc(self.loc);
        let v = b.alloca(Space::Private, ty);
        self.entry_pos += 1;
        v
    }

    /// Inserts at the entry, after the allocas made so far.
    fn at_entry<T>(&mut self, f: impl FnOnce(&mut Builder<'_>) -> T) -> T {
        let body = self.func.body;
        let pos = self.entry_pos;
        let mut b = Builder::new(&mut self.mc.module.types, &mut self.func);
        b.set_insertion_at(body, pos);
        b.set_loc(self.loc);
        let before = b.func.regions[body].ops.len();
        let r = f(&mut b);
        let after = self.func.regions[body].ops.len();
        self.entry_pos += after - before;
        r
    }

    fn run(&mut self) -> Result<()> {
        let f = self.f;
        let params = self.func.param_values().to_vec();
        if f.entry {
            for (p, &v) in f.params.iter().zip(&params) {
                self.func.values[v].name = Some(p.name.clone());
                if p.array.is_some() {
                    self.locals.insert(p.name.clone(), Local::Mem(v));
                } else {
                    self.kparams.insert(p.name.clone(), (v, p.ty));
                }
            }
        } else {
            for (p, &v) in f.rets.iter().chain(&f.params).zip(&params) {
                self.func.values[v].name = Some(p.name.clone());
                self.fparams.insert(p.name.clone(), v);
            }
        }
        let Some(stmts) = &f.body else {
            return Ok(());
        };
        self.build_blocks(stmts)?;
        let cfg = Cfg {
            succs: self
                .blocks
                .iter()
                .map(|b| match &b.term {
                    Term::Goto(t) => vec![*t],
                    Term::Cond { taken, next, .. } => vec![*taken, *next],
                    Term::Switch { targets, .. } => targets.clone(),
                    Term::Return => vec![],
                })
                .collect(),
        };
        let plan = analyze(&cfg).map_err(|e| {
            let pos = self.block_pos(e.from);
            Error::new(
                pos,
                format!(
                    "irreducible control flow in `{}` (a second entry into a loop)",
                    f.name
                ),
            )
        })?;
        self.plan = Some(plan);
        let i32t = self.types().i32();
        let next = self.entry_alloca(i32t);
        self.func.values[next].name = Some("jump".into());
        self.at_entry(|b| {
            let z = b.i32(0);
            b.store(next, z);
        });
        self.next = Some(next);
        let mut ctx = Vec::new();
        self.do_tree(0, &mut ctx)?;
        self.loc = self.mc.loc(f.pos);
        self.cur = self.func.body;
        self.b().ret(vec![]);
        Ok(())
    }

    fn block_pos(&self, b: usize) -> Pos {
        for it in &self.blocks[b].items {
            if let Item::Inst(i) = it {
                return i.pos;
            }
        }
        match &self.blocks[b].term {
            Term::Cond { pos, .. } => *pos,
            _ => self.f.pos,
        }
    }

    // ---- basic blocks ------------------------------------------------------

    fn build_blocks(&mut self, stmts: &'p [Stmt]) -> Result<()> {
        let mut labels: HashMap<&str, usize> = HashMap::new();
        // Jump tables: a label followed by `.branchtargets`.
        let mut tables: HashMap<&str, &[String]> = HashMap::new();
        for w in stmts.windows(2) {
            if let [Stmt::Label(l, _), Stmt::Targets(t, _)] = w {
                tables.insert(l.as_str(), t.as_slice());
            }
        }
        let is_table = |s: &Stmt| matches!(s, Stmt::Label(l, _) if tables.contains_key(l.as_str()));
        // Pass 1: number the blocks.
        let mut nblocks = 1usize;
        let mut open = true; // the current block has no instruction yet after a split
        for s in stmts {
            if is_table(s) {
                continue;
            }
            match s {
                Stmt::Targets(..) => {}
                Stmt::Label(l, pos) => {
                    if !open {
                        nblocks += 1;
                    }
                    if labels.insert(l.as_str(), nblocks - 1).is_some() {
                        return err(*pos, format!("label `{l}` is defined twice"));
                    }
                    open = true;
                }
                Stmt::Inst(i) => {
                    if let Some(r) = first_reg_dest(i) {
                        self.defs.entry(r).or_default().push(i);
                    }
                    if i.is_branch() {
                        nblocks += 1;
                        open = true;
                    } else {
                        open = false;
                    }
                }
                Stmt::Var(_) => open = false,
            }
        }
        let exit = nblocks;
        self.exit = exit;
        self.blocks = (0..=exit)
            .map(|i| Block {
                items: Vec::new(),
                term: if i == exit {
                    Term::Return
                } else {
                    Term::Goto(i + 1)
                },
            })
            .collect();
        // Pass 2: fill them.
        let mut cur = 0usize;
        let mut open = true;
        for s in stmts {
            if is_table(s) {
                continue;
            }
            match s {
                Stmt::Targets(..) => {}
                Stmt::Label(l, _) => {
                    if !open {
                        cur += 1;
                    }
                    cur = labels.get(l.as_str()).copied().unwrap_or(cur);
                    open = true;
                }
                Stmt::Var(v) => {
                    self.blocks[cur].items.push(Item::Decl(v));
                    open = false;
                }
                Stmt::Inst(i) if i.op == Opcode::Brx => {
                    // `.idx` is required by the decoder.
                    if i.guard.is_some() {
                        return i.unsupported();
                    }
                    let table = match i.args.get(1) {
                        Some(Operand::Sym(t)) => tables.get(t.as_str()).copied(),
                        _ => None,
                    };
                    let Some(table) = table.filter(|t| !t.is_empty()) else {
                        return err(i.pos, "`brx.idx` needs a `.branchtargets` table");
                    };
                    let mut targets = Vec::new();
                    for l in table {
                        match labels.get(l.as_str()) {
                            Some(&t) => targets.push(t),
                            None => return err(i.pos, format!("unknown label `{l}`")),
                        }
                    }
                    let reg = i.args.first().cloned().unwrap_or(Operand::Sink);
                    self.blocks[cur].term = Term::Switch {
                        reg,
                        targets,
                        pos: i.pos,
                    };
                    cur += 1;
                    open = true;
                }
                Stmt::Inst(i) if i.is_branch() => {
                    let next = cur + 1;
                    let target = match i.op {
                        Opcode::Bra => match i.args.first() {
                            Some(Operand::Sym(l)) => match labels.get(l.as_str()) {
                                Some(&t) => t,
                                None => return err(i.pos, format!("unknown label `{l}`")),
                            },
                            _ => {
                                return err(
                                    i.pos,
                                    "`bra` needs a label (indirect branches are not supported)",
                                )
                            }
                        },
                        _ => exit,
                    };
                    self.blocks[cur].term = match &i.guard {
                        None => Term::Goto(target),
                        Some(g) => Term::Cond {
                            pred: g.reg.clone(),
                            neg: g.negated,
                            taken: target,
                            next,
                            pos: i.pos,
                        },
                    };
                    cur = next;
                    open = true;
                }
                Stmt::Inst(i) => {
                    self.blocks[cur].items.push(Item::Inst(i));
                    open = false;
                }
            }
        }
        // The last block falls into the exit.
        Ok(())
    }

    // ---- structured emission -------------------------------------------------

    fn plan(&self) -> &Plan {
        // Set before any emission.
        self.plan
            .as_ref()
            .expect("plan is computed before emission")
    }

    fn jump_id(&self, target: usize) -> i64 {
        target as i64 + 1
    }

    fn set_next(&mut self, target: usize) {
        let id = self.jump_id(target);
        let Some(next) = self.next else { return };
        let mut b = self.b();
        let c = b.i32(id as i32);
        b.store(next, c);
        self.pending.insert(target);
    }

    fn load_next(&mut self) -> Value {
        let i32t = self.types().i32();
        let next = self.next.expect("jump variable exists");
        self.b().load(next, i32t)
    }

    /// `jump = (jump == id(target)) ? 0 : jump`.
    fn consume(&mut self, target: usize) {
        let id = self.jump_id(target) as i32;
        let next = self.next.expect("jump variable exists");
        let v = self.load_next();
        let mut b = self.b();
        let k = b.i32(id);
        let z = b.i32(0);
        let c = b.cmp(CmpPred::Eq, v, k);
        let s = b.select(c, z, v);
        b.store(next, s);
    }

    fn do_tree(&mut self, x: usize, ctx: &mut Vec<Ctx>) -> Result<()> {
        let outs = self.plan().outside[x].clone();
        self.with_blocks(x, &outs, ctx, true)
    }

    fn with_blocks(
        &mut self,
        x: usize,
        ys: &[usize],
        ctx: &mut Vec<Ctx>,
        loop_stage: bool,
    ) -> Result<()> {
        let Some((&y, rest)) = ys.split_first() else {
            if loop_stage && self.plan().header[x] {
                return self.emit_loop(x, ctx);
            }
            if loop_stage {
                let ins = self.plan().inside[x].clone();
                return self.with_blocks(x, &ins, ctx, false);
            }
            return self.emit_node(x, ctx);
        };
        let outer = std::mem::take(&mut self.pending);
        ctx.push(Ctx::Block(y));
        let r = self.with_blocks(x, rest, ctx, loop_stage);
        ctx.pop();
        r?;
        let mut inner = std::mem::take(&mut self.pending);
        if inner.remove(&y) {
            self.consume(y);
        }
        if inner.is_empty() {
            self.do_tree(y, ctx)?;
        } else {
            let v = self.load_next();
            let mut b = self.b();
            let z = b.i32(0);
            let c = b.cmp(CmpPred::Eq, v, z);
            let (_, t, e) = b.create_if(c, &[]);
            let saved = self.cur;
            self.cur = e;
            self.b().yield_(vec![]);
            self.cur = t;
            self.do_tree(y, ctx)?;
            self.b().yield_(vec![]);
            self.cur = saved;
        }
        inner.extend(std::mem::take(&mut self.pending));
        inner.extend(outer);
        self.pending = inner;
        Ok(())
    }

    fn emit_loop(&mut self, h: usize, ctx: &mut Vec<Ctx>) -> Result<()> {
        let outer = std::mem::take(&mut self.pending);
        let (_, before, after) = self.b().create_while(&[], &[]);
        let saved = self.cur;
        self.cur = after;
        self.b().yield_(vec![]);
        self.cur = before;
        ctx.push(Ctx::Loop(h));
        let ins = self.plan().inside[h].clone();
        let r = self.with_blocks(h, &ins, ctx, false);
        ctx.pop();
        r?;
        let mut inner = std::mem::take(&mut self.pending);
        if inner.remove(&h) {
            self.consume(h);
        }
        let c = if inner.is_empty() {
            self.b().bool(true)
        } else {
            let v = self.load_next();
            let mut b = self.b();
            let z = b.i32(0);
            b.cmp(CmpPred::Eq, v, z)
        };
        self.b().condition(c, vec![]);
        self.cur = saved;
        inner.extend(outer);
        self.pending = inner;
        Ok(())
    }

    fn branch(&mut self, from: usize, to: usize, ctx: &mut Vec<Ctx>) -> Result<()> {
        let edge = self.plan().edge(from, to);
        match edge {
            Edge::Continue => {
                if ctx.last() != Some(&Ctx::Loop(to)) {
                    if !ctx.contains(&Ctx::Loop(to)) {
                        return err(self.block_pos(from), "branch to a loop from outside it");
                    }
                    self.set_next(to);
                }
                Ok(())
            }
            Edge::Exit => {
                if ctx.last() != Some(&Ctx::Block(to)) {
                    if !ctx.contains(&Ctx::Block(to)) {
                        return err(self.block_pos(from), "branch the structurizer cannot place");
                    }
                    self.set_next(to);
                }
                Ok(())
            }
            Edge::Inline => self.do_tree(to, ctx),
        }
    }

    fn emit_node(&mut self, x: usize, ctx: &mut Vec<Ctx>) -> Result<()> {
        let items = self.blocks[x].items.clone();
        for it in items {
            match it {
                Item::Decl(v) => self.local_decl(v)?,
                Item::Inst(i) => self.inst(i)?,
            }
        }
        let term = self.blocks[x].term.clone();
        match term {
            Term::Goto(t) => self.branch(x, t, ctx),
            Term::Return => {
                if !ctx.is_empty() {
                    // Leave every construct: nothing after runs.
                    self.set_next(self.exit);
                }
                Ok(())
            }
            Term::Switch { reg, targets, pos } => {
                self.loc = self.mc.loc(pos);
                let r = self.read(&reg, PtxType::U32, pos)?;
                let saved = self.cur;
                let n = targets.len();
                let mut elses = Vec::new();
                for (k, &t) in targets.iter().enumerate() {
                    if k + 1 == n {
                        self.branch(x, t, ctx)?;
                        break;
                    }
                    let mut b = self.b();
                    let kk = b.i32(k as i32);
                    let c = b.cmp(CmpPred::Eq, r, kk);
                    let (_, th, el) = b.create_if(c, &[]);
                    self.cur = th;
                    self.branch(x, t, ctx)?;
                    self.b().yield_(vec![]);
                    self.cur = el;
                    elses.push(el);
                }
                // Close the else-regions, innermost first.
                for r in elses.into_iter().rev() {
                    self.cur = r;
                    self.b().yield_(vec![]);
                }
                self.cur = saved;
                Ok(())
            }
            Term::Cond {
                pred,
                neg,
                taken,
                next,
                pos,
            } => {
                self.loc = self.mc.loc(pos);
                let c = self.predicate(&pred, neg, pos)?;
                let (_, t, e) = self.b().create_if(c, &[]);
                let saved = self.cur;
                self.cur = t;
                self.branch(x, taken, ctx)?;
                self.b().yield_(vec![]);
                self.cur = e;
                self.branch(x, next, ctx)?;
                self.b().yield_(vec![]);
                self.cur = saved;
                Ok(())
            }
        }
    }

    fn local_decl(&mut self, v: &'p VarDecl) -> Result<()> {
        self.loc = self.mc.loc(v.pos);
        match v.space {
            StateSpace::Reg => {
                if v.ty == PtxType::TexRef || !v.dims.is_empty() {
                    return err(v.pos, "register arrays are not supported");
                }
                let ty = ir_type(self.types(), v.ty);
                if v.range.is_some_and(|n| n > 1 << 16) {
                    return err(v.pos, "too many registers in one declaration");
                }
                let names: Vec<String> = match v.range {
                    Some(n) => (0..n).map(|k| format!("{}{k}", v.name)).collect(),
                    None => vec![v.name.clone()],
                };
                for n in names {
                    let a = self.entry_alloca(ty);
                    self.func.values[a].name = Some(n.trim_start_matches('%').to_string());
                    self.locals.insert(n, Local::Reg(a, ty));
                }
                Ok(())
            }
            StateSpace::Local | StateSpace::Param => {
                if v.init.is_some() {
                    return err(v.pos, "initialised local variables are not supported");
                }
                if v.dims.iter().any(|d| d.is_none()) {
                    return err(v.pos, "unsized local arrays are not supported");
                }
                let bytes = v.count().saturating_mul(v.ty.bytes());
                if bytes > (1 << 24) {
                    return err(v.pos, format!("local variable `{}` is too large", v.name));
                }
                let ty = if v.dims.is_empty() {
                    ir_type(self.types(), v.ty)
                } else {
                    let a = v.align.unwrap_or(v.ty.bytes());
                    byte_array(self.types(), bytes, a)
                };
                let a = self.entry_alloca(ty);
                self.func.values[a].name = Some(v.name.clone());
                self.locals.insert(v.name.clone(), Local::Mem(a));
                self.param_src.remove(&v.name);
                Ok(())
            }
            // Laid out in the module's shared window up front.
            StateSpace::Shared => Ok(()),
            other => err(
                v.pos,
                format!("{other:?} variables in a function body are not supported"),
            ),
        }
    }

    // ---- values ----------------------------------------------------------------

    /// Converts `v` to type `to` (same-size reinterpretation, integer
    /// truncation or extension as `signed` says).
    fn convert(&mut self, v: Value, to: TypeId, signed: bool, pos: Pos) -> Result<Value> {
        let from = self.func.value_type(v);
        if from == to {
            return Ok(v);
        }
        let ft = self.types()[from].clone();
        let tt = self.types()[to].clone();
        let size = |t: &Type| match t {
            Type::Int(b) => u64::from(*b),
            Type::Float(k) => k.bytes() * 8,
            _ => 0,
        };
        let mut b = self.b();
        Ok(match (&ft, &tt) {
            (Type::Int(1), Type::Int(_)) => {
                if signed {
                    b.cast(CastOp::SExt, v, to)
                } else {
                    b.cast(CastOp::ZExt, v, to)
                }
            }
            (Type::Int(_), Type::Int(1)) => {
                let z = b.const_int(from, 0);
                b.cmp(CmpPred::Ne, v, z)
            }
            (Type::Int(a), Type::Int(c)) => {
                if a > c {
                    b.cast(CastOp::Trunc, v, to)
                } else if signed {
                    b.cast(CastOp::SExt, v, to)
                } else {
                    b.cast(CastOp::ZExt, v, to)
                }
            }
            (Type::Float(_), Type::Int(_))
            | (Type::Int(_), Type::Float(_))
            | (Type::Float(_), Type::Float(_)) => {
                let (fs, ts) = (size(&ft), size(&tt));
                if fs == ts && ft.is_int() != tt.is_int() {
                    b.cast(CastOp::Bitcast, v, to)
                } else if ft.is_float() && tt.is_int() {
                    let it = b.types.int(fs as u8);
                    let i = b.cast(CastOp::Bitcast, v, it);
                    return self.convert(i, to, signed, pos);
                } else if ft.is_int() && tt.is_float() {
                    let it = b.types.int(ts as u8);
                    let i = self.convert(v, it, signed, pos)?;
                    return Ok(self.b().cast(CastOp::Bitcast, i, to));
                } else {
                    // Two float formats of one size (f16/bf16).
                    let it = b.types.int(fs as u8);
                    let i = b.cast(CastOp::Bitcast, v, it);
                    b.cast(CastOp::Bitcast, i, to)
                }
            }
            (Type::Ptr(_), Type::Int(_)) => {
                let i64t = b.types.i64();
                let i = b.cast(CastOp::PtrToInt, v, i64t);
                return self.convert(i, to, signed, pos);
            }
            _ => return err(pos, "operand of the wrong kind"),
        })
    }

    fn read_reg(&mut self, name: &str, t: PtxType, pos: Pos) -> Result<Value> {
        let to = ir_type(self.types(), t);
        let signed = matches!(t, PtxType::Int { signed: true, .. });
        if let Some(Local::Reg(a, ty)) = self.locals.get(name).copied() {
            let v = self.b().load(a, ty);
            return self.convert(v, to, signed, pos);
        }
        let v = self.special_reg(name, pos)?;
        self.convert(v, to, false, pos)
    }

    /// The value of predicate register `name`, inverted if `negated`.
    fn predicate(&mut self, name: &str, negated: bool, pos: Pos) -> Result<Value> {
        let c = self.read_reg(name, PtxType::Pred, pos)?;
        if !negated {
            return Ok(c);
        }
        let mut b = self.b();
        let t = b.bool(true);
        Ok(b.binary(BinOp::Xor, c, t))
    }

    fn special_reg(&mut self, name: &str, pos: Pos) -> Result<Value> {
        let dim = |s: &str| match s {
            "x" => Some(Dim::X),
            "y" => Some(Dim::Y),
            "z" => Some(Dim::Z),
            _ => None,
        };
        let (base, comp) = match name.split_once('.') {
            Some((b, c)) => (b, dim(c)),
            None => (name, None),
        };
        let i32t = self.types().i32();
        let i64t = self.types().i64();
        let mut b = self.b();
        Ok(match (base, comp) {
            ("%tid", Some(d)) => b.thread_id(d),
            ("%ntid", Some(d)) => b.block_dim(d),
            ("%ctaid", Some(d)) => b.block_id(d),
            ("%nctaid", Some(d)) => b.grid_dim(d),
            ("%laneid", None) => b.lane_id(),
            ("%warpid", None) => {
                let x = b.thread_id(Dim::X);
                let y = b.thread_id(Dim::Y);
                let z = b.thread_id(Dim::Z);
                let bx = b.block_dim(Dim::X);
                let by = b.block_dim(Dim::Y);
                let zy = b.binary(BinOp::Mul, z, by);
                let zy = b.binary(BinOp::Add, zy, y);
                let l = b.binary(BinOp::Mul, zy, bx);
                let l = b.binary(BinOp::Add, l, x);
                let k = b.i32(5);
                b.binary(BinOp::LShr, l, k)
            }
            ("%nwarpid", None) => b.i32(32),
            ("%smid", None) => b.i32(0),
            ("%nsmid", None) => b.i32(1),
            ("%clock", None) => b.op1(OpKind::Clock { wide: false }, vec![], i32t),
            ("%clock64", None) | ("%globaltimer", None) => {
                b.op1(OpKind::Clock { wide: true }, vec![], i64t)
            }
            ("%globaltimer_lo", None) => b.op1(OpKind::Clock { wide: false }, vec![], i32t),
            ("%lanemask_eq", None)
            | ("%lanemask_lt", None)
            | ("%lanemask_le", None)
            | ("%lanemask_gt", None)
            | ("%lanemask_ge", None) => {
                let lane = b.lane_id();
                let one = b.i32(1);
                let bit = b.binary(BinOp::Shl, one, lane);
                let lt = b.binary(BinOp::Sub, bit, one);
                let all = b.i32(-1);
                match base {
                    "%lanemask_eq" => bit,
                    "%lanemask_lt" => lt,
                    "%lanemask_le" => b.binary(BinOp::Or, lt, bit),
                    "%lanemask_ge" => b.binary(BinOp::Xor, lt, all),
                    _ => {
                        let le = b.binary(BinOp::Or, lt, bit);
                        b.binary(BinOp::Xor, le, all)
                    }
                }
            }
            _ => return err(pos, format!("unknown register `{name}`")),
        })
    }

    fn write_reg(&mut self, name: &str, v: Value, signed: bool, pos: Pos) -> Result<()> {
        match self.locals.get(name).copied() {
            Some(Local::Reg(a, ty)) => {
                let v = self.convert(v, ty, signed, pos)?;
                self.b().store(a, v);
                Ok(())
            }
            _ => err(pos, format!("`{name}` is not a declared register")),
        }
    }

    fn imm(&mut self, n: Num, t: PtxType) -> Value {
        let ty = ir_type(self.types(), t);
        let bits = num_bits(n, t);
        let bits = match t {
            PtxType::Pred => bits & 1,
            PtxType::Int { bits: w, .. } if w < 64 => bits & ((1u64 << w) - 1),
            PtxType::Float { bits: 16, .. } => bits & 0xffff,
            _ => bits,
        };
        self.b().op1(OpKind::Const { bits }, vec![], ty)
    }

    /// Reads operand `o` as a value of type `t`.
    fn read(&mut self, o: &Operand, t: PtxType, pos: Pos) -> Result<Value> {
        if let Operand::Sym(s) = o {
            // Inline-asm registers may be spelled without `%`.
            if let Some(Local::Reg(..)) = self.locals.get(s.as_str()) {
                return self.read_reg(s, t, pos);
            }
        }
        match o {
            Operand::Reg(r, neg) => {
                let v = self.read_reg(r, t, pos)?;
                if *neg {
                    let mut b = self.b();
                    let one = b.bool(true);
                    return Ok(b.binary(BinOp::Xor, v, one));
                }
                Ok(v)
            }
            Operand::Imm(n) => Ok(self.imm(*n, t)),
            Operand::Sym(s) => {
                let a = self.sym_address(s, pos)?;
                let ty = ir_type(self.types(), t);
                self.convert(a, ty, false, pos)
            }
            Operand::Vec(parts) => {
                // `{a, b}` packed little-endian into one wider value.
                let total = t.bytes() * 8;
                let n = parts.len() as u64;
                if n == 0 || total % n != 0 {
                    return err(pos, "bad vector operand");
                }
                let w = (total / n) as u8;
                let pt = PtxType::int(w, false);
                let wide = self.types().int(total as u8);
                let mut acc = self.b().const_int(wide, 0);
                for (k, p) in parts.iter().enumerate() {
                    let v = self.read(p, pt, pos)?;
                    let mut b = self.b();
                    let e = b.cast(CastOp::ZExt, v, wide);
                    let sh = b.const_int(wide, (k as u64 * u64::from(w)) as i64);
                    let e = b.binary(BinOp::Shl, e, sh);
                    acc = b.binary(BinOp::Or, acc, e);
                }
                let ty = ir_type(self.types(), t);
                self.convert(acc, ty, false, pos)
            }
            _ => err(pos, "unexpected operand"),
        }
    }

    /// Writes `v` to the destination operand `o`.
    fn write(&mut self, o: &Operand, v: Value, signed: bool, pos: Pos) -> Result<()> {
        match o {
            Operand::Reg(r, false) => self.write_reg(r, v, signed, pos),
            Operand::Sym(r) if matches!(self.locals.get(r.as_str()), Some(Local::Reg(..))) => {
                self.write_reg(r, v, signed, pos)
            }
            Operand::Sink => Ok(()),
            Operand::Vec(parts) => {
                let ty = self.func.value_type(v);
                let bits = match self.types()[ty].clone() {
                    Type::Int(b) => b,
                    Type::Float(k) => (k.bytes() * 8) as u8,
                    _ => return err(pos, "bad vector destination"),
                };
                let n = parts.len() as u8;
                if n == 0 || bits % n != 0 {
                    return err(pos, "bad vector destination");
                }
                let w = bits / n;
                let it = self.types().int(bits);
                let v = self.convert(v, it, false, pos)?;
                let pt = self.types().int(w);
                for (k, p) in parts.iter().enumerate() {
                    let mut b = self.b();
                    let sh = b.const_int(it, (k as u64 * u64::from(w)) as i64);
                    let s = b.binary(BinOp::LShr, v, sh);
                    let e = b.cast(CastOp::Trunc, s, pt);
                    self.write(p, e, false, pos)?;
                }
                Ok(())
            }
            _ => err(pos, "destination must be a register"),
        }
    }

    /// The address (as an `i64`, or a shared-window offset) of a symbol.
    fn sym_address(&mut self, s: &str, pos: Pos) -> Result<Value> {
        let i64t = self.types().i64();
        if let Some(l) = self.locals.get(s).copied() {
            return match l {
                Local::Mem(p) => Ok(self.b().cast(CastOp::PtrToInt, p, i64t)),
                Local::Reg(..) => err(pos, format!("`{s}` is a register")),
            };
        }
        if let Some(&p) = self.fparams.get(s) {
            return Ok(self.b().cast(CastOp::PtrToInt, p, i64t));
        }
        if s == "WARP_SZ" {
            return Ok(self.b().i64(32));
        }
        if let Some(&n) = self.mc.fn_numbers.get(s) {
            return Ok(self.b().i64(n as i64));
        }
        match self.mc.syms.get(s).copied() {
            Some(ModSym::Global(g, space)) => {
                let mut b = self.b();
                let p = b.global_addr(g, space);
                Ok(b.cast(CastOp::PtrToInt, p, i64t))
            }
            Some(ModSym::Shared(off)) => Ok(self.b().i64(off as i64)),
            Some(ModSym::DynShared) => {
                let s = self.mc.shared_size;
                Ok(self.b().i64(s as i64))
            }
            None => {
                if self.kparams.contains_key(s) {
                    let p = self.param_slot(s, pos)?;
                    return Ok(self.b().cast(CastOp::PtrToInt, p, i64t));
                }
                err(pos, format!("unknown symbol `{s}`"))
            }
        }
    }

    /// A private copy of a scalar kernel parameter, for address-taking.
    fn param_slot(&mut self, name: &str, pos: Pos) -> Result<Value> {
        if let Some(Local::Mem(p)) = self.locals.get(name).copied() {
            return Ok(p);
        }
        let Some((v, _)) = self.kparams.get(name).copied() else {
            return err(pos, format!("unknown parameter `{name}`"));
        };
        let ty = self.func.value_type(v);
        let a = self.entry_alloca(ty);
        self.at_entry(|b| {
            b.store(a, v);
        });
        self.locals.insert(name.to_string(), Local::Mem(a));
        Ok(a)
    }

    /// The shared variable register `r`'s address lies in, when the module's
    /// variables are separate globals.
    fn derived_var(&self, r: &str) -> Option<String> {
        self.mc.split.as_ref()?.get(&self.f.name)?.get(r).cloned()
    }

    /// A pointer to window offset `off` (an i64), which lies in shared
    /// variable `var`, through that variable's own global (or the dynamic
    /// shared memory, which follows the static variables in the window).
    fn var_ptr(&mut self, var: &str, off: Value) -> Result<Value> {
        let i8t = self.types().i8();
        let (base, start) = match (
            self.mc.syms.get(var).copied(),
            self.mc.shared_globals.get(var),
        ) {
            (Some(ModSym::Shared(start)), Some(&g)) => {
                (self.b().global_addr(g, Space::Shared), start)
            }
            (Some(ModSym::DynShared), _) => (self.b().dynamic_shared(), self.mc.shared_size),
            _ => return self.shared_ptr(off),
        };
        let mut b = self.b();
        let rel = if start == 0 {
            off
        } else {
            let s = b.i64(start as i64);
            b.binary(BinOp::Sub, off, s)
        };
        Ok(b.ptr_index(base, rel, i8t))
    }

    /// A pointer into the shared window at byte offset `off` (an integer).
    fn shared_ptr(&mut self, off: Value) -> Result<Value> {
        let i64t = self.types().i64();
        let i8t = self.types().i8();
        let off = self.convert(off, i64t, false, Pos::default())?;
        let size = self.mc.shared_size;
        let window = self.mc.window;
        let dynamic = self.mc.has_dynamic;
        let mut b = self.b();
        let stat = window.map(|g| {
            let base = b.global_addr(g, Space::Shared);
            b.ptr_index(base, off, i8t)
        });
        let dynp = dynamic.then(|| {
            let base = b.dynamic_shared();
            let s = b.i64(size as i64);
            let o = b.binary(BinOp::Sub, off, s);
            b.ptr_index(base, o, i8t)
        });
        Ok(match (stat, dynp) {
            (Some(s), Some(d)) => {
                let lim = b.i64(size as i64);
                let c = b.cmp(CmpPred::Ult, off, lim);
                b.select(c, s, d)
            }
            (Some(s), None) => s,
            (None, Some(d)) => d,
            (None, None) => {
                // No shared memory at all: any shared access is out of bounds;
                // the dynamic pointer reports it at run time.
                let base = b.dynamic_shared();
                b.ptr_index(base, off, i8t)
            }
        })
    }

    fn ir_space(s: StateSpace) -> Space {
        match s {
            StateSpace::Global => Space::Global,
            StateSpace::Const => Space::Constant,
            StateSpace::Shared => Space::Shared,
            StateSpace::Local | StateSpace::Param | StateSpace::Reg => Space::Private,
            StateSpace::Generic | StateSpace::Tex => Space::Generic,
        }
    }

    /// The pointer an address operand names, in state space `space`.
    fn address(&mut self, o: &Operand, space: StateSpace, pos: Pos) -> Result<Value> {
        let (base, off) = match o {
            Operand::Addr(b, off) => (&**b, *off),
            _ => return err(pos, "expected an address `[...]`"),
        };
        let i8t = self.types().i8();
        let want = Self::ir_space(space);
        let reg_base;
        let base = match base {
            Operand::Sym(s) if matches!(self.locals.get(s.as_str()), Some(Local::Reg(..))) => {
                reg_base = Operand::Reg(s.clone(), false);
                &reg_base
            }
            b => b,
        };
        let ptr = match base {
            Operand::Sym(s) => {
                let p = self.sym_pointer(s, space, pos)?;
                let mut b = self.b();
                if off != 0 {
                    let k = b.i64(off);
                    b.ptr_index(p, k, i8t)
                } else {
                    p
                }
            }
            Operand::Reg(r, false) => {
                let w = if space == StateSpace::Shared {
                    // 32- or 64-bit offsets both work.
                    match self.locals.get(r.as_str()) {
                        Some(Local::Reg(_, ty)) if self.mc.module.types[*ty] == Type::Int(32) => 32,
                        _ => 64,
                    }
                } else {
                    64
                };
                let v = self.read_reg(r, PtxType::int(w, false), pos)?;
                // A 32-bit shared address wraps at 2^32 as the GPU's does:
                // nvcc writes `[%r+68]` with `%r` = the array's address -
                // 64, "negative" for an array at offset 0. Window offsets
                // are far below 2^31, so reading the register as signed
                // gives the wrapped sum for every address inside the
                // window, and keeps `+ 68` foldable into the C address.
                let i64t = self.types().i64();
                let v = self.convert(v, i64t, w == 32, pos)?;
                let v = if off != 0 {
                    let mut b = self.b();
                    let k = b.i64(off);
                    b.binary(BinOp::Add, v, k)
                } else {
                    v
                };
                if space == StateSpace::Shared {
                    match self.derived_var(r) {
                        Some(var) => self.var_ptr(&var, v)?,
                        None => self.shared_ptr(v)?,
                    }
                } else {
                    let pt = self.types().ptr(want);
                    self.b().cast(CastOp::IntToPtr, v, pt)
                }
            }
            Operand::Imm(Num::Int(a)) => {
                let v = self.b().i64(a.wrapping_add(off));
                if space == StateSpace::Shared {
                    self.shared_ptr(v)?
                } else {
                    let pt = self.types().ptr(want);
                    self.b().cast(CastOp::IntToPtr, v, pt)
                }
            }
            _ => return err(pos, "unsupported address"),
        };
        let ty = self.func.value_type(ptr);
        let have = self.mc.module.types[ty].ptr_space();
        if have != Some(want) {
            let pt = self.types().ptr(want);
            return Ok(self.b().cast(CastOp::SpaceCast, ptr, pt));
        }
        Ok(ptr)
    }

    /// The pointer a symbol names when used as an address base.
    fn sym_pointer(&mut self, s: &str, space: StateSpace, pos: Pos) -> Result<Value> {
        if let Some(Local::Mem(p)) = self.locals.get(s).copied() {
            return Ok(p);
        }
        if let Some(&p) = self.fparams.get(s) {
            return Ok(p);
        }
        match self.mc.syms.get(s).copied() {
            Some(ModSym::Global(g, sp)) => Ok(self.b().global_addr(g, sp)),
            Some(ModSym::Shared(off)) => {
                let v = self.b().i64(off as i64);
                if self.mc.split.is_some() {
                    self.var_ptr(s, v)
                } else {
                    self.shared_ptr(v)
                }
            }
            Some(ModSym::DynShared) => Ok(self.b().dynamic_shared()),
            None => {
                if self.kparams.contains_key(s) {
                    return self.param_slot(s, pos);
                }
                let _ = space;
                err(pos, format!("unknown symbol `{s}`"))
            }
        }
    }
}

fn first_reg_dest(i: &Inst) -> Option<String> {
    use Opcode as O;
    if matches!(
        i.op,
        O::St | O::Red | O::Bar | O::Barrier | O::Call | O::Bra | O::Ret | O::Exit
    ) {
        return None;
    }
    match i.args.first() {
        Some(Operand::Reg(r, false)) => Some(r.clone()),
        _ => None,
    }
}
