//! The per-function C writer.

use super::checks::{self, Sanitize};
use super::prelude::extern_c_name;
use super::{entry_c_name, global_c_name, sanitize, texref_c_name};
use crate::error::CpuifyError;
use cucc_ir::types::round_up;
use cucc_ir::{
    ArithFlags, AtomicOp, BinOp, Callee, CastOp, CmpPred, Dim, FloatKind, FuncId, Function, Level,
    Loc, Module, Op, OpKind, Region, SecondaryMap, Space, TexKind, Type, TypeId, UnOp, Value,
    ValueDef,
};
use std::fmt::Write;

/// What the runtime needs to know about an emitted kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmittedKernel {
    /// The kernel's symbol (device name).
    pub name: String,
    /// The C entry's symbol.
    pub entry: String,
    /// Bytes of static shared memory the entry places at the start of `scratch`.
    pub static_shared: u64,
    /// Size in bytes of each parameter as the caller passes it.
    pub param_sizes: Vec<u64>,
    /// The entry accepts ranges of global linear thread ids (a collapsed
    /// launch, `passes::collapse`): `cucc_kernel_info.flags` bit 0.
    pub thread_ranges: bool,
    /// The entry accepts ranges of the linear index of its two outer
    /// global loops (an N-D collapsed launch): the launch dimensions of the
    /// outermost and the middle loop (`cucc_kernel_info.flags` bit 1, bits
    /// 2-3 and 4-5).
    pub outer_ranges: Option<(usize, usize)>,
}

/// Alignment of the dynamic shared area after the static one.
const DYN_ALIGN: u64 = 16;

/// Emits the entry of launch-form function `fid`.
pub fn emit_function(module: &Module, fid: FuncId) -> Result<(String, EmittedKernel), CpuifyError> {
    emit_function_checked(module, fid, Sanitize::Off)
}

/// Emits the entry of launch-form function `fid` with the run-time checks
/// of `sanitize` (`super::checks`).
pub fn emit_function_checked(
    module: &Module,
    fid: FuncId,
    sanitize: Sanitize,
) -> Result<(String, EmittedKernel), CpuifyError> {
    let func = &module.functions[fid];
    let mut w = Writer {
        module,
        func,
        out: String::new(),
        indent: 1,
        names: SecondaryMap::with_default(String::new()),
        shared_offsets: SecondaryMap::with_default(0),
        shared_size: 0,
        independent: independent_loops(module, func),
        overrides: std::collections::HashMap::new(),
        thread_ranges: false,
        nd_order: None,
        tex_views: std::collections::HashMap::new(),
        masked_selects: super::select::carried_by_while(func),
        bounded_ivs: super::shift::bounded_ivs(func),
        sanitize,
        sites: String::new(),
        site_count: 0,
        thread_loops: Vec::new(),
        block_expr: None,
        private_size: 0,
    };
    w.name_values();
    w.layout_shared();
    let entry = entry_c_name(&func.name);
    let mut param_sizes = Vec::new();
    let mut head = format!(
        "/* kernel {} */\nvoid {entry}(void **args, const cucc_launch *launch, uint32_t block_begin, uint32_t block_end, void *scratch) {{\n",
        func.name
    );
    head.push_str("  (void)launch; (void)block_begin; (void)block_end; (void)scratch;\n");
    // The launch description in locals: stores through the kernel's `char *`
    // pointers may alias `*launch`, so reading it inside loops would reload it.
    head.push_str(
        "  const uint32_t cucc_grid0 = launch->grid[0], cucc_grid1 = launch->grid[1], cucc_grid2 = launch->grid[2];\n  \
         const uint32_t cucc_block0 = launch->block[0], cucc_block1 = launch->block[1], cucc_block2 = launch->block[2];\n  \
         const size_t cucc_dyn_size = (size_t)launch->dynamic_shared;\n  \
         (void)cucc_grid0; (void)cucc_grid1; (void)cucc_grid2; (void)cucc_block0; (void)cucc_block1; (void)cucc_block2; (void)cucc_dyn_size;\n",
    );
    // The runtime launches only CUDA's shapes (docs/abi.md): telling gcc
    // lets it count thread loops as running 1..=1024 times in signed ints.
    head.push_str(
        "  if (cucc_block0 - 1u >= 1024u || cucc_block1 - 1u >= 1024u || cucc_block2 - 1u >= 64u || cucc_grid0 - 1u >= 0x7fffffffu || cucc_grid1 - 1u >= 65535u || cucc_grid2 - 1u >= 65535u) __builtin_unreachable();\n",
    );
    let _ = writeln!(
        head,
        "  char *const cucc_dyn = (char *)scratch + {};\n  (void)cucc_dyn;",
        round_up(w.shared_size, DYN_ALIGN)
    );
    w.checks_prologue(&mut head);
    for (i, &p) in func.param_values().iter().enumerate() {
        let attrs = func.params.get(i).cloned().unwrap_or_default();
        let name = w.names.get(p).clone();
        if let Some(agg) = attrs.byval {
            let size = module.types.size_of(agg).max(1);
            let align = module.types.align_of(agg).max(1);
            param_sizes.push(size);
            let _ = writeln!(
                head,
                "  unsigned char {name}_copy[{size}] __attribute__((aligned({align})));\n  memcpy({name}_copy, args[{i}], {size});\n  char *{name} = (char *){name}_copy;"
            );
        } else {
            let ty = func.value_type(p);
            let cty = w.c_type(ty)?;
            param_sizes.push(module.types.size_of(ty));
            let restrict = if attrs.noalias && cty == "char *" {
                " restrict"
            } else {
                ""
            };
            let decl = if cty == "char *" {
                format!("char *{restrict} {name}")
            } else {
                format!("{cty} {name}")
            };
            let _ = writeln!(head, "  {decl} = *({cty} *)args[{i}];");
        }
    }
    w.tex_views(&mut head);
    w.put_body()?;
    if w.sanitize == Sanitize::Memcheck {
        // Each site's cached allocation range (`checks::PRELUDE`).
        let _ = writeln!(
            head,
            "  uintptr_t cucc_mc_cache[{}][2] = {{{{0}}}};",
            w.site_count.max(1)
        );
    }
    let mut text = std::mem::take(&mut w.sites);
    text.push_str(&head);
    text.push_str(&w.out);
    text.push_str("}\n");
    let info = EmittedKernel {
        name: func.name.clone(),
        entry,
        static_shared: round_up(w.shared_size, DYN_ALIGN),
        param_sizes,
        thread_ranges: w.thread_ranges,
        outer_ranges: w.nd_order.map(|o| (o[2], o[1])),
    };
    Ok((text, info))
}

/// Where a region's `yield` sends its values.
enum YieldTo<'n> {
    /// Assign to these C variables.
    Vars(&'n [String]),
    /// Nothing is yielded (parallel bodies).
    Nothing,
}

struct Writer<'m> {
    module: &'m Module,
    func: &'m Function,
    out: String,
    indent: usize,
    names: SecondaryMap<Value, String>,
    /// Offset in `scratch` of each shared alloca.
    shared_offsets: SecondaryMap<Op, u64>,
    /// Bytes of static shared memory.
    shared_size: u64,
    /// Thread loops whose iterations are independent
    /// (`serialize_inner::iterations_independent`): their innermost C loop
    /// carries `#pragma GCC ivdep`.
    independent: std::collections::HashSet<Op>,
    /// Ops whose result is a C expression the enclosing loop already has
    /// (the thread and block ids a collapsed grid loop divides out).
    overrides: std::collections::HashMap<Op, String>,
    /// A collapsed grid loop was emitted.
    thread_ranges: bool,
    /// An N-D collapsed grid loop was emitted: the launch dimension of each
    /// loop, innermost first.
    nd_order: Option<[usize; 3]>,
    /// Texture views resolved in the prologue, by (handle, out kind, channels).
    tex_views: std::collections::HashMap<(Value, u8, usize), String>,
    /// `select`s written as masks (`select::carried_by_while`).
    masked_selects: std::collections::HashSet<Op>,
    /// Loop indices under constant bounds (`shift::bounded_ivs`).
    bounded_ivs: std::collections::HashMap<Value, Value>,
    /// Run-time checks to emit (`super::checks`).
    sanitize: Sanitize,
    /// Definitions of the access sites the checks name.
    sites: String,
    /// Sites defined so far.
    site_count: usize,
    /// The thread loops around the op being emitted, outermost first:
    /// their level, index variables and bounds.
    thread_loops: Vec<(Level, Vec<String>, Vec<String>)>,
    /// The linear block id inside the grid loop.
    block_expr: Option<String>,
    /// Bytes of private allocas (the stack frame a generic pointer may
    /// address).
    private_size: u64,
}

impl<'m> Writer<'m> {
    fn err(&self, loc: Loc, msg: impl Into<String>) -> CpuifyError {
        CpuifyError::new(self.module, loc, &self.func.name, msg)
    }

    /// The error for IR the verifier rejects (the emitter takes verified
    /// IR and does not re-check it; this is where a lookup would
    /// otherwise have nothing to return).
    fn unverified(&self, loc: Loc, what: &str) -> CpuifyError {
        self.err(
            loc,
            format!("internal error: unverified IR reached the C emitter ({what})"),
        )
    }

    fn line(&mut self, s: &str) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    /// Places every shared alloca at a fixed offset of `scratch`.
    fn layout_shared(&mut self) {
        let mut offset = 0;
        for (_, op) in self.func.walk() {
            if let OpKind::Alloca {
                space: Space::Shared,
                ty,
            } = self.func.ops[op].kind
            {
                let align = self.module.types.align_of(ty).max(1);
                offset = round_up(offset, align);
                self.shared_offsets.set(op, offset);
                offset += self.module.types.size_of(ty);
            } else if let OpKind::Alloca {
                space: Space::Private,
                ty,
            } = self.func.ops[op].kind
            {
                let t = &self.module.types;
                self.private_size += round_up(t.size_of(ty).max(1), t.align_of(ty).max(1));
            }
        }
        self.shared_size = offset;
    }

    /// Gives every value a unique C identifier.
    fn name_values(&mut self) {
        for (v, data) in self.func.values.iter() {
            let base = match &data.name {
                Some(n) if !n.is_empty() => sanitize(n),
                _ => "v".to_string(),
            };
            self.names.set(v, format!("{base}_{}", v.index()));
        }
    }

    fn n(&self, v: Value) -> &str {
        self.names.get(v)
    }

    fn c_type(&self, ty: TypeId) -> Result<&'static str, CpuifyError> {
        Ok(match &self.module.types[ty] {
            Type::Int(1) => "bool",
            Type::Int(8) => "uint8_t",
            Type::Int(16) => "uint16_t",
            Type::Int(32) => "uint32_t",
            Type::Int(64) => "uint64_t",
            Type::Float(FloatKind::F16) | Type::Float(FloatKind::BF16) => "uint16_t",
            Type::Float(FloatKind::F32) => "float",
            Type::Float(FloatKind::F64) => "double",
            Type::Ptr(_) => "char *",
            other => {
                return Err(self.err(
                    self.func.loc,
                    format!("a value of type {other:?} has no C representation"),
                ))
            }
        })
    }

    fn vty(&self, v: Value) -> Result<&'static str, CpuifyError> {
        self.c_type(self.func.value_type(v))
    }

    fn ty_of(&self, v: Value) -> &'m Type {
        &self.module.types[self.func.value_type(v)]
    }

    /// True when `p` is known to address shared memory: its type says so,
    /// or it is derived (through space casts, indexing and field
    /// addressing) from a shared alloca, a shared global or the dynamic
    /// shared memory. Atomics on such addresses need no atomic instructions.
    fn points_to_shared(&self, p: Value) -> bool {
        let mut v = p;
        for _ in 0..64 {
            if self.ty_of(v).ptr_space() == Some(Space::Shared) {
                return true;
            }
            let ValueDef::Result { op, .. } = self.func.values[v].def else {
                return false;
            };
            let od = &self.func.ops[op];
            match &od.kind {
                OpKind::Cast(CastOp::SpaceCast) => v = od.input(),
                OpKind::PtrIndex { .. } | OpKind::PtrField { .. } => v = od.ptr(),
                OpKind::Alloca { space, .. } => return *space == Space::Shared,
                OpKind::GlobalAddr(g) => {
                    return self
                        .module
                        .globals
                        .try_get(*g)
                        .is_some_and(|g| g.space == Space::Shared)
                }
                OpKind::DynamicShared => return true,
                _ => return false,
            }
        }
        false
    }

    fn int_bits(&self, v: Value) -> u8 {
        self.ty_of(v).int_bits().unwrap_or(64)
    }

    fn signed_ty(bits: u8) -> &'static str {
        match bits {
            1 | 8 => "int8_t",
            16 => "int16_t",
            32 => "int32_t",
            _ => "int64_t",
        }
    }

    fn unsigned_ty(bits: u8) -> &'static str {
        match bits {
            1 => "bool",
            8 => "uint8_t",
            16 => "uint16_t",
            32 => "uint32_t",
            _ => "uint64_t",
        }
    }

    /// `(intN_t)x` reading an integer value as signed (i1 as 0/-1).
    fn as_signed(&self, v: Value) -> String {
        let bits = self.int_bits(v);
        if bits == 1 {
            format!("(-(int8_t){})", self.n(v))
        } else {
            format!("(({}){})", Self::signed_ty(bits), self.n(v))
        }
    }

    /// An `int64_t` C expression for integer `v` (at most 32 bits) read as
    /// signed. The sign extension of an `nsw` `add`, `sub` or `mul` is the
    /// same op on the extended operands (the exact result fits, so
    /// extending it or its operands agrees), so it is written that way,
    /// a few levels deep: `(int64_t)a + (int64_t)tx` is an affine 64-bit
    /// index to gcc, where `(int64_t)(int32_t)(a + tx)` is not. The ops
    /// folded dominate `v`'s use, so their C variables are in scope and
    /// they ran (an overflow was already undefined there).
    fn wide_signed(&self, v: Value) -> String {
        let mut budget = 8;
        self.wide_signed_at(v, 0, &mut budget)
    }

    fn wide_signed_at(&self, v: Value, depth: u32, budget: &mut u32) -> String {
        let leaf = || format!("(int64_t){}", self.as_signed(v));
        let bits = self.int_bits(v);
        if bits == 1 || bits > 32 || depth > 3 || *budget == 0 {
            return leaf();
        }
        let Some(op) = self.func.defining_op(v) else {
            return leaf();
        };
        let data = &self.func.ops[op];
        if self.overrides.contains_key(&op) {
            return leaf();
        }
        match &data.kind {
            OpKind::Binary(b, flags)
                if flags.nsw && b.takes_nsw() && bits == 32 && data.operands.len() == 2 =>
            {
                *budget -= 1;
                let sym = match b {
                    BinOp::Add => "+",
                    BinOp::Sub => "-",
                    _ => "*",
                };
                let x = self.wide_signed_at(data.lhs(), depth + 1, budget);
                let y = self.wide_signed_at(data.rhs(), depth + 1, budget);
                format!("({x} {sym} {y})")
            }
            OpKind::Const { bits: raw } => {
                let shift = 64 - u32::from(bits);
                let k = ((raw << shift) as i64) >> shift;
                format!("INT64_C({k})")
            }
            _ => leaf(),
        }
    }

    /// A 16-bit float value widened to `float`, or the value itself.
    fn as_float(&self, v: Value) -> String {
        match self.ty_of(v) {
            Type::Float(FloatKind::F16) => format!("cucc_h2f({})", self.n(v)),
            Type::Float(FloatKind::BF16) => format!("cucc_bf2f({})", self.n(v)),
            _ => self.n(v).to_string(),
        }
    }

    /// Narrows a `float` expression to the storage of float kind `k`.
    fn from_float(k: FloatKind, e: String) -> String {
        match k {
            FloatKind::F16 => format!("cucc_f2h({e})"),
            FloatKind::BF16 => format!("cucc_f2bf({e})"),
            _ => e,
        }
    }

    fn put_body(&mut self) -> Result<(), CpuifyError> {
        let body = self.func.body;
        if !self.put_top(body)? {
            return Err(self.err(self.func.loc, "launch function has no grid-level parallel"));
        }
        Ok(())
    }

    /// The ops of `region`, the launch's body or a branch of a top-level
    /// `if` choosing between versions of the grid loop (`clamp-guards`);
    /// true if it held the grid loop. Each version must take the same kind
    /// of range as the other: the runtime picks one for the kernel.
    fn put_top(&mut self, region: Region) -> Result<bool, CpuifyError> {
        let ops = self.func.regions[region].ops.clone();
        let mut grid_seen = false;
        for op in ops {
            let data = &self.func.ops[op];
            let grid = data.kind == (OpKind::Parallel { level: Level::Grid });
            if grid || self.is_grid_version(op) {
                if grid_seen {
                    return Err(self.err(data.loc, "more than one grid-level parallel"));
                }
                grid_seen = true;
                if !grid {
                    self.put_grid_versions(op)?;
                } else if let Some(shape) = crate::passes::collapse::nd_shape(self.func, op) {
                    self.put_nd(op, shape)?;
                } else if crate::passes::collapse::collapsed_shape(self.func, op) {
                    self.put_collapsed(op)?;
                } else {
                    self.put_grid(op)?;
                }
                continue;
            }
            match &data.kind {
                OpKind::Yield if region != self.func.body => {}
                OpKind::Return => self.line("return;"),
                k if k.is_pure()
                    || matches!(
                        k,
                        OpKind::Alloca {
                            space: Space::Private,
                            ..
                        }
                    ) =>
                {
                    self.put_op(op)?
                }
                k => {
                    return Err(self.err(
                        data.loc,
                        format!(
                            "`{}` outside the grid loop would run once per worker",
                            k.mnemonic()
                        ),
                    ))
                }
            }
        }
        Ok(grid_seen)
    }

    /// True if `op` is an `if` without results whose branches each hold a
    /// grid loop (at their top level).
    fn is_grid_version(&self, op: Op) -> bool {
        let data = &self.func.ops[op];
        data.kind == OpKind::If
            && data.results.is_empty()
            && data.regions.iter().all(|&r| {
                self.func.regions[r].ops.iter().any(|&o| {
                    self.func.ops[o].kind == (OpKind::Parallel { level: Level::Grid })
                        || self.is_grid_version(o)
                })
            })
    }

    /// `if (c) { grid loop } else { grid loop }`, each version taking the
    /// same kind of range.
    fn put_grid_versions(&mut self, op: Op) -> Result<(), CpuifyError> {
        let data = &self.func.ops[op];
        let (loc, then_r, else_r) = (data.loc, data.then_region(), data.else_region());
        let c = self.n(data.cond()).to_string();
        self.line(&format!("if ({c}) {{"));
        self.indent += 1;
        let saved = (self.thread_ranges, self.nd_order);
        self.put_top(then_r)?;
        let first = (self.thread_ranges, self.nd_order);
        (self.thread_ranges, self.nd_order) = saved;
        self.indent -= 1;
        self.line("} else {");
        self.indent += 1;
        self.put_top(else_r)?;
        self.indent -= 1;
        self.line("}");
        if first != (self.thread_ranges, self.nd_order) {
            return Err(self.err(loc, "versions of the grid loop take different ranges"));
        }
        Ok(())
    }

    fn put_grid(&mut self, op: Op) -> Result<(), CpuifyError> {
        let data = &self.func.ops[op];
        let region = data.body();
        let ubs: Vec<String> = data.ubs().iter().map(|&v| self.n(v).to_string()).collect();
        let ivs = self.func.regions[region].args.clone();
        // The block ids of `block_begin` are divided out once; later blocks
        // step them like an odometer (x fastest), with no division per block.
        let dims = ivs.len();
        let cur: Vec<String> = (0..dims).map(|k| format!("cucc_b{k}")).collect();
        let mut rest = "block_begin".to_string();
        for k in 0..dims {
            if k + 1 == dims {
                self.line(&format!("uint32_t {} = (uint32_t)({rest});", cur[k]));
            } else {
                self.line(&format!(
                    "uint32_t {} = (uint32_t)(({rest}) % {});",
                    cur[k], ubs[k]
                ));
                rest = format!("({rest}) / {}", ubs[k]);
            }
        }
        self.line("for (uint32_t blin = block_begin; blin < block_end; ++blin) {");
        self.indent += 1;
        for (k, &iv) in ivs.iter().enumerate() {
            let name = self.n(iv).to_string();
            self.line(&format!("const uint32_t {name} = {};", cur[k]));
        }
        // Shared memory is not cleared between blocks: CUDA leaves it
        // uninitialised, and a block's setup must stay cheap for small blocks.
        let outer_block = self.block_expr.replace("blin".to_string());
        self.put_region(region, YieldTo::Nothing)?;
        self.block_expr = outer_block;
        if dims > 0 {
            let mut step = format!("++{};", cur[0]);
            for k in 1..dims {
                step = format!(
                    "{step} if ({prev} == {ub}) {{ {prev} = 0; ++{this};",
                    prev = cur[k - 1],
                    ub = ubs[k - 1],
                    this = cur[k]
                );
            }
            step.push_str(&" }".repeat(dims - 1));
            self.line(&step);
        }
        self.indent -= 1;
        self.line("}");
        Ok(())
    }

    /// A collapsed grid loop (`passes::collapse`): iteration `(t, b)` is
    /// global thread `t + nt*b`. The entry's range is of thread ids when
    /// `launch->thread_ranges` is set, of blocks otherwise; each block of it
    /// runs as z, y, x loops clipped to the range, x innermost, so a range
    /// may start and end in the middle of a block and ids need no division
    /// per thread.
    fn put_collapsed(&mut self, op: Op) -> Result<(), CpuifyError> {
        let region = self.func.ops[op].body();
        let ivs = self.func.regions[region].args.clone();
        self.thread_ranges = true;
        self.find_decomposition(
            region,
            ivs[0],
            "cucc_block",
            ["cucc_tx", "cucc_ty", "cucc_tz"],
        );
        self.find_decomposition(
            region,
            ivs[1],
            "cucc_grid",
            ["cucc_cb0", "cucc_cb1", "cucc_cb2"],
        );
        let t = self.n(ivs[0]).to_string();
        let b = self.n(ivs[1]).to_string();
        for l in [
            "{",
            "const uint32_t cucc_nt = cucc_block0 * cucc_block1 * cucc_block2;",
            "uint64_t cucc_lo = block_begin, cucc_hi = block_end;",
            "if (!launch->thread_ranges) { cucc_lo *= cucc_nt; cucc_hi *= cucc_nt; }",
            "if (cucc_lo < cucc_hi) {",
            "const uint32_t cucc_bfirst = (uint32_t)(cucc_lo / cucc_nt), cucc_blast = (uint32_t)((cucc_hi - 1) / cucc_nt);",
            "const uint32_t cucc_tfirst = (uint32_t)(cucc_lo % cucc_nt), cucc_tlast = (uint32_t)((cucc_hi - 1) % cucc_nt);",
            "uint32_t cucc_cb0 = cucc_bfirst % cucc_grid0, cucc_cb1 = cucc_bfirst / cucc_grid0 % cucc_grid1, cucc_cb2 = cucc_bfirst / cucc_grid0 / cucc_grid1;",
            "for (uint32_t blin = cucc_bfirst;; ++blin) {",
        ] {
            self.line(l);
            if l.ends_with('{') && l.len() > 1 {
                self.indent += 1;
            }
        }
        self.line(&format!("const uint32_t {b} = blin;"));
        for l in [
            "const uint32_t cucc_s = blin == cucc_bfirst ? cucc_tfirst : 0, cucc_e = blin == cucc_blast ? cucc_tlast : cucc_nt - 1;",
            "uint32_t cucc_x0 = 0, cucc_y0 = 0, cucc_z0 = 0, cucc_x1 = cucc_block0 - 1, cucc_y1 = cucc_block1 - 1, cucc_z1 = cucc_block2 - 1;",
            "if (cucc_s != 0) { cucc_x0 = cucc_s % cucc_block0; cucc_y0 = cucc_s / cucc_block0 % cucc_block1; cucc_z0 = cucc_s / cucc_block0 / cucc_block1; }",
            "if (cucc_e != cucc_nt - 1) { cucc_x1 = cucc_e % cucc_block0; cucc_y1 = cucc_e / cucc_block0 % cucc_block1; cucc_z1 = cucc_e / cucc_block0 / cucc_block1; }",
            "for (uint32_t cucc_tz = cucc_z0; cucc_tz <= cucc_z1; ++cucc_tz) {",
            "const uint32_t cucc_ylo = cucc_tz == cucc_z0 ? cucc_y0 : 0, cucc_yhi = cucc_tz == cucc_z1 ? cucc_y1 : cucc_block1 - 1;",
            "for (uint32_t cucc_ty = cucc_ylo; cucc_ty <= cucc_yhi; ++cucc_ty) {",
            "const uint32_t cucc_xlo = (cucc_tz == cucc_z0 && cucc_ty == cucc_y0) ? cucc_x0 : 0;",
            "const uint32_t cucc_xhi = (cucc_tz == cucc_z1 && cucc_ty == cucc_y1) ? cucc_x1 + 1 : cucc_block0;",
        ] {
            self.line(l);
            if l.ends_with('{') {
                self.indent += 1;
            }
        }
        // Signed: at most a block's 1024 threads (see `put_parallel`).
        self.line(
            "for (int32_t cucc_tx = (int32_t)cucc_xlo; cucc_tx < (int32_t)cucc_xhi; ++cucc_tx) {",
        );
        self.indent += 1;
        self.line(&format!(
            "const uint32_t {t} = cucc_tx + cucc_block0 * (cucc_ty + cucc_block1 * cucc_tz);"
        ));
        self.put_region(region, YieldTo::Nothing)?;
        for _ in 0..3 {
            self.indent -= 1;
            self.line("}");
        }
        self.line("if (blin == cucc_blast) break;");
        self.line("if (++cucc_cb0 == cucc_grid0) { cucc_cb0 = 0; if (++cucc_cb1 == cucc_grid1) { cucc_cb1 = 0; ++cucc_cb2; } }");
        for _ in 0..3 {
            self.indent -= 1;
            self.line("}");
        }
        Ok(())
    }

    /// An N-D collapsed grid loop (`passes::collapse::collapse_nd`): loop
    /// `k` (0 innermost) runs over global coordinate `shape[k].0` in 64
    /// bits, so extents beyond 32 bits stay exact; the region's
    /// `urem`/`udiv` of a coordinate by its block dim become 64-bit
    /// expressions of the counter. Clamped bounds (`shape[k].1`) apply when
    /// the extent fits in 32 bits (the IR computed them from it). The entry
    /// takes ranges of the outer two loops' linear index `g2 * e1 + g1`
    /// when `launch->thread_ranges == 2` (`CUCC_KERNEL_OUTER_RANGES`), of
    /// blocks otherwise; the body is written once for each.
    fn put_nd(&mut self, op: Op, shape: [(usize, bool); 3]) -> Result<(), CpuifyError> {
        let region = self.func.ops[op].body();
        let ivs = self.func.regions[region].args.clone();
        let bounds = self.func.ops[op].ubs().to_vec();
        self.nd_order = Some([shape[0].0, shape[1].0, shape[2].0]);
        let mut walk = Vec::new();
        self.func.walk_region(region, &mut walk);
        for (_, o) in walk {
            let data = &self.func.ops[o];
            let OpKind::Binary(bop @ (BinOp::URem | BinOp::UDiv), _) = data.kind else {
                continue;
            };
            let Some(k) = ivs.iter().position(|&v| v == data.lhs()) else {
                continue;
            };
            let dim = shape[k].0;
            let is_bdim = self
                .func
                .defining_op(data.rhs())
                .is_some_and(|x| self.func.ops[x].kind == OpKind::BlockDim(Dim::ALL[dim]));
            if is_bdim {
                let c = if bop == BinOp::URem { '%' } else { '/' };
                self.overrides
                    .insert(o, format!("(uint32_t)(cucc_g{k} {c} cucc_block{dim})"));
            }
        }
        self.line("{");
        self.indent += 1;
        for (k, &(d, clamped)) in shape.iter().enumerate() {
            self.line(&format!(
                "const uint64_t cucc_e{k} = (uint64_t)cucc_grid{d} * cucc_block{d};"
            ));
            if clamped {
                let b = self.n(bounds[k]).to_string();
                self.line(&format!(
                    "const uint64_t cucc_u{k} = cucc_e{k} > UINT32_MAX ? cucc_e{k} : (cucc_e{k} < (uint64_t){b} ? cucc_e{k} : (uint64_t){b});"
                ));
            } else {
                self.line(&format!("const uint64_t cucc_u{k} = cucc_e{k};"));
            }
        }
        let decls: Vec<String> = ivs
            .iter()
            .enumerate()
            .map(|(k, &iv)| format!("const uint32_t {} = (uint32_t)cucc_g{k};", self.n(iv)))
            .collect();
        self.line("if (launch->thread_ranges == 2) {");
        self.indent += 1;
        self.line("for (uint64_t cucc_r = block_begin; cucc_r < (uint64_t)block_end; ++cucc_r) {");
        self.indent += 1;
        self.line("const uint64_t cucc_g2 = cucc_r / cucc_e1, cucc_g1 = cucc_r % cucc_e1;");
        self.line("if (cucc_g2 >= cucc_u2 || cucc_g1 >= cucc_u1) continue;");
        // The innermost loop counts in `int32_t` when its extent allows:
        // gcc sees the coordinate's sign-extended uses as affine only then
        // (and vectorises the loop); the 64-bit loop keeps wider extents exact.
        self.line("if (cucc_u0 <= (uint64_t)INT32_MAX) {");
        self.indent += 1;
        // Tests of the innermost coordinate against 0 (`if (j == 0)`, work
        // for the first column only) are decided for every iteration but
        // the first: that one is peeled, and the loop runs the rest with the
        // tests folded, so a guarded store to a fixed address does not keep
        // it from vectorising.
        let first_only = self.first_iteration_tests(region, ivs[0]);
        let start = if first_only.is_empty() {
            0
        } else {
            self.line("if (cucc_u0 > 0) {");
            self.indent += 1;
            self.line("const int32_t cucc_i0 = 0;");
            self.line("const uint64_t cucc_g0 = (uint64_t)cucc_i0;");
            for l in &decls {
                self.line(l);
            }
            self.put_region(region, YieldTo::Nothing)?;
            self.indent -= 1;
            self.line("}");
            for &(o, value) in &first_only {
                self.overrides.insert(o, value.to_string());
            }
            1
        };
        self.line(&format!(
            "for (int32_t cucc_i0 = {start}; cucc_i0 < (int32_t)cucc_u0; ++cucc_i0) {{"
        ));
        self.indent += 1;
        self.line("const uint64_t cucc_g0 = (uint64_t)cucc_i0;");
        for l in &decls {
            self.line(l);
        }
        self.put_region(region, YieldTo::Nothing)?;
        for &(o, _) in &first_only {
            self.overrides.remove(&o);
        }
        self.indent -= 1;
        self.line("}");
        self.indent -= 1;
        self.line("} else {");
        self.indent += 1;
        self.line("for (uint64_t cucc_g0 = 0; cucc_g0 < cucc_u0; ++cucc_g0) {");
        self.indent += 1;
        for l in &decls {
            self.line(l);
        }
        self.put_region(region, YieldTo::Nothing)?;
        self.indent -= 1;
        self.line("}");
        self.indent -= 1;
        self.line("}");
        self.indent -= 1;
        self.line("}");
        self.indent -= 1;
        self.line("} else {");
        self.indent += 1;
        // Blocks in linear order (x fastest), stepped like an odometer.
        self.line("uint32_t cucc_c0 = block_begin % cucc_grid0, cucc_c1 = block_begin / cucc_grid0 % cucc_grid1, cucc_c2 = block_begin / cucc_grid0 / cucc_grid1;");
        self.line("for (uint32_t blin = block_begin; blin < block_end; ++blin) {");
        self.indent += 1;
        self.line("const uint32_t cucc_c[3] = {cucc_c0, cucc_c1, cucc_c2}, cucc_bd[3] = {cucc_block0, cucc_block1, cucc_block2};");
        for (k, &(d, _)) in shape.iter().enumerate() {
            self.line(&format!(
                "const uint64_t cucc_lo{k} = (uint64_t)cucc_c[{d}] * cucc_bd[{d}], cucc_hi{k} = cucc_lo{k} + cucc_bd[{d}] < cucc_u{k} ? cucc_lo{k} + cucc_bd[{d}] : cucc_u{k};"
            ));
        }
        for k in (0..3).rev() {
            self.line(&format!(
                "for (uint64_t cucc_g{k} = cucc_lo{k}; cucc_g{k} < cucc_hi{k}; ++cucc_g{k}) {{"
            ));
            self.indent += 1;
        }
        for l in &decls {
            self.line(l);
        }
        self.put_region(region, YieldTo::Nothing)?;
        for _ in 0..3 {
            self.indent -= 1;
            self.line("}");
        }
        self.line("if (++cucc_c0 == cucc_grid0) { cucc_c0 = 0; if (++cucc_c1 == cucc_grid1) { cucc_c1 = 0; ++cucc_c2; } }");
        for _ in 0..3 {
            self.indent -= 1;
            self.line("}");
        }
        Ok(())
    }

    /// The `cmp eq`/`cmp ne` ops of `region` (at any depth) comparing `iv`
    /// with the constant 0, each with its value on every iteration but the
    /// first (`false` for `eq`, `true` for `ne`).
    fn first_iteration_tests(&self, region: Region, iv: Value) -> Vec<(Op, &'static str)> {
        let mut walk = Vec::new();
        self.func.walk_region(region, &mut walk);
        let is_zero = |v: Value| self.func.const_bits(v) == Some(0);
        walk.into_iter()
            .filter_map(|(_, o)| {
                let data = &self.func.ops[o];
                let value = match data.kind {
                    OpKind::Cmp(CmpPred::Eq) => "false",
                    OpKind::Cmp(CmpPred::Ne) => "true",
                    _ => return None,
                };
                let (a, b) = (data.lhs(), data.rhs());
                ((a == iv && is_zero(b)) || (b == iv && is_zero(a))).then_some((o, value))
            })
            .collect()
    }

    /// Records overrides for the ops of `region` that divide linear id `l`
    /// into x, y, z by the launch extents `dims` (`cucc_block`/`cucc_grid`),
    /// as `passes::collapse` writes them: `urem l, X`, `udiv l, X`, then
    /// `urem q, Y` and `udiv q, Y` of that quotient.
    fn find_decomposition(&mut self, region: Region, l: Value, dims: &str, vars: [&str; 3]) {
        let func = self.func;
        let dim_of = |v: Value| {
            func.defining_op(v).and_then(|o| match func.ops[o].kind {
                OpKind::BlockDim(d) if dims == "cucc_block" => Some(d.index()),
                OpKind::GridDim(d) if dims == "cucc_grid" => Some(d.index()),
                _ => None,
            })
        };
        let mut quotient = None;
        for &op in &func.regions[region].ops {
            let data = &func.ops[op];
            let OpKind::Binary(bop, _) = data.kind else {
                continue;
            };
            if data.operands.len() != 2 {
                continue;
            }
            let (a, d) = (data.lhs(), dim_of(data.rhs()));
            let expr = match (bop, d) {
                (BinOp::URem, Some(0)) if a == l => vars[0].to_string(),
                (BinOp::UDiv, Some(0)) if a == l => {
                    quotient = Some(data.results[0]);
                    format!("({} + {dims}1 * {})", vars[1], vars[2])
                }
                (BinOp::URem, Some(1)) if Some(a) == quotient => vars[1].to_string(),
                (BinOp::UDiv, Some(1)) if Some(a) == quotient => vars[2].to_string(),
                _ => continue,
            };
            self.overrides.insert(op, expr);
        }
    }

    fn put_region(&mut self, region: Region, to: YieldTo<'_>) -> Result<(), CpuifyError> {
        let ops = self.func.regions[region].ops.clone();
        for op in ops {
            if self.func.ops[op].kind == OpKind::Yield {
                if let YieldTo::Vars(vars) = &to {
                    self.put_assign(vars, &self.func.ops[op].operands.clone())?;
                }
            } else {
                self.put_op(op)?;
            }
        }
        Ok(())
    }

    /// Parallel assignment `vars = vals` through temporaries when needed.
    fn put_assign(&mut self, vars: &[String], vals: &[Value]) -> Result<(), CpuifyError> {
        if vars.len() == 1 {
            let s = format!("{} = {};", vars[0], self.n(vals[0]));
            self.line(&s);
            return Ok(());
        }
        let mut tmps = Vec::new();
        for (i, &v) in vals.iter().enumerate() {
            let t = format!("{}_next{i}", vars[i]);
            let s = format!("{} = {};", c_decl(self.vty(v)?, &t, true), self.n(v));
            self.line(&s);
            tmps.push(t);
        }
        for (var, t) in vars.iter().zip(tmps) {
            self.line(&format!("{var} = {t};"));
        }
        Ok(())
    }

    fn decl(&mut self, v: Value, expr: &str) -> Result<(), CpuifyError> {
        let s = format!("{} = {expr};", c_decl(self.vty(v)?, self.n(v), true));
        self.line(&s);
        Ok(())
    }

    fn put_op(&mut self, op: Op) -> Result<(), CpuifyError> {
        if let Some(expr) = self.overrides.get(&op).cloned() {
            let r = self.func.result(op);
            return self.decl(r, &expr);
        }
        let data = &self.func.ops[op];
        let ops = &data.operands;
        let loc = data.loc;
        let res = data.results.first().copied();
        // The verifier checked the op table's operand and result counts,
        // which the indexing below relies on.
        debug_assert!(data.kind.operand_arity().accepts(ops.len()));
        debug_assert!(data.kind.result_arity().accepts(data.results.len()));
        let one = || res.ok_or_else(|| self.unverified(loc, "an op without its result"));
        match &data.kind {
            OpKind::Const { bits } => {
                let r = one()?;
                let e = self.constant(r, *bits);
                self.decl(r, &e)?;
            }
            OpKind::Undef => {
                let r = one()?;
                let e = if self.ty_of(r).is_ptr() {
                    "(char *)0"
                } else {
                    "0"
                };
                self.decl(r, e)?;
            }
            OpKind::Binary(b, flags) => {
                let r = one()?;
                let e = self.binary(*b, *flags, ops[0], ops[1], r)?;
                self.decl(r, &e)?;
            }
            OpKind::Unary(u) => {
                let r = one()?;
                let e = self.unary(*u, ops[0]);
                self.decl(r, &e)?;
            }
            OpKind::Cmp(p) => {
                let r = one()?;
                let e = self.cmp(*p, ops[0], ops[1]);
                self.decl(r, &e)?;
            }
            OpKind::Cast(c) => {
                let r = one()?;
                let e = self.cast(*c, ops[0], r)?;
                self.decl(r, &e)?;
            }
            OpKind::Select => {
                let r = one()?;
                let (c, a, b) = (self.n(ops[0]), self.n(ops[1]), self.n(ops[2]));
                let masked = if self.masked_selects.contains(&op) {
                    super::select::masked(self.vty(r)?, c, a, b)
                } else {
                    None
                };
                let e = masked.unwrap_or_else(|| format!("{c} ? {a} : {b}"));
                self.decl(r, &e)?;
            }
            OpKind::If => self.put_if(op)?,
            OpKind::For { unsigned } => self.put_for(op, *unsigned)?,
            OpKind::While => self.put_while(op)?,
            OpKind::Parallel { level } => self.put_parallel(op, *level)?,
            OpKind::Yield | OpKind::Condition => {
                return Err(self.err(loc, "terminator in an unexpected place"))
            }
            OpKind::Return => self.line("return;"),
            OpKind::Call(Callee::Extern(name)) => {
                let r = one()?;
                let args: Vec<String> = ops.iter().map(|&v| self.as_float(v)).collect();
                let call = format!("{}({})", extern_c_name(name), args.join(", "));
                let e = match self.ty_of(r) {
                    Type::Float(k) => Self::from_float(*k, call),
                    _ => call,
                };
                self.decl(r, &e)?;
            }
            OpKind::Call(Callee::Func(_)) => {
                return Err(self.err(
                    loc,
                    "calls to device functions must be inlined before emit_c",
                ))
            }
            OpKind::Alloca { space, ty } => {
                let r = one()?;
                let size = self.module.types.size_of(*ty).max(1);
                let align = self.module.types.align_of(*ty).max(1);
                match space {
                    Space::Shared => {
                        let off = *self.shared_offsets.get(op);
                        let e = format!("(char *)scratch + {off}");
                        self.decl(r, &e)?;
                    }
                    Space::Private => {
                        let buf = format!("{}_buf", self.n(r));
                        // Small cells are zeroed (free, and keeps gcc's
                        // uninitialised-use analysis quiet); big per-thread
                        // arrays are not, as every slot is written first.
                        let init = if size <= 16 { " = {0}" } else { "" };
                        self.line(&format!(
                            "unsigned char {buf}[{size}] __attribute__((aligned({align}))){init};"
                        ));
                        self.decl(r, &format!("(char *){buf}"))?;
                    }
                    _ => return Err(self.err(loc, format!("`alloca<{space}>` is not valid here"))),
                }
            }
            OpKind::Load {
                volatile,
                speculative,
            } => {
                let r = one()?;
                let t = self.vty(r)?;
                if !*speculative {
                    let size = self.module.types.size_of(self.func.value_type(r)).max(1);
                    self.check_access(ops[0], &size.to_string(), size, 0, loc)?;
                }
                let q = if *volatile { "volatile " } else { "" };
                // `i1` lives in memory as a byte holding 0 or 1, read and
                // written as `uint8_t`: gcc vectorises byte accesses, not
                // `_Bool` ones (per-thread flag arrays).
                let e = if t == "bool" {
                    format!("*({q}uint8_t *){} != 0", self.n(ops[0]))
                } else {
                    format!("*({q}{t} *){}", self.n(ops[0]))
                };
                self.decl(r, &e)?;
            }
            OpKind::Store { volatile } => {
                let t = self.vty(ops[1])?;
                let size = self
                    .module
                    .types
                    .size_of(self.func.value_type(ops[1]))
                    .max(1);
                let mem_ty = if t == "bool" { "uint8_t" } else { t };
                let v = self.n(ops[1]).to_string();
                self.check_access_storing(
                    ops[0],
                    &size.to_string(),
                    size,
                    checks::SITE_WRITE,
                    loc,
                    Some((mem_ty, &v)),
                )?;
                let q = if *volatile { "volatile " } else { "" };
                let s = if t == "bool" {
                    format!(
                        "*({q}uint8_t *){} = (uint8_t){};",
                        self.n(ops[0]),
                        self.n(ops[1])
                    )
                } else {
                    format!("*({q}{t} *){} = {};", self.n(ops[0]), self.n(ops[1]))
                };
                self.line(&s);
            }
            OpKind::PtrIndex { elem } => {
                let r = one()?;
                let size = self.module.types.size_of(*elem);
                // A 64-bit index stays unsigned: the product wraps like the
                // signed one would address, and gcc reads an unsigned
                // evolution (`(size_t)n * row + col`) as affine, where its
                // conversion to `int64_t` is not (it might wrap).
                let idx = if self.int_bits(ops[1]) == 64 {
                    self.n(ops[1]).to_string()
                } else {
                    self.wide_signed(ops[1])
                };
                let e = format!("{} + {idx} * {size}", self.n(ops[0]));
                self.decl(r, &e)?;
            }
            OpKind::PtrField { ty, field } => {
                let r = one()?;
                let Type::Struct(s) = &self.module.types[*ty] else {
                    return Err(self.unverified(loc, "`ptr.field` of a non-struct"));
                };
                let f = &s.fields[*field as usize];
                let e = format!("{} + {}", self.n(ops[0]), f.offset);
                self.decl(r, &e)?;
            }
            OpKind::GlobalAddr(g) => {
                let r = one()?;
                let gd = &self.module.globals[*g];
                if gd.space == Space::Shared {
                    return Err(self.err(
                        loc,
                        format!(
                            "shared global `{}` was not lowered by lower-launch",
                            gd.name
                        ),
                    ));
                }
                let e = if gd.managed {
                    format!("(char *){}", super::managed_c_name(&gd.name))
                } else {
                    format!("(char *){}", global_c_name(&gd.name))
                };
                self.decl(r, &e)?;
            }
            OpKind::DynamicShared => {
                let r = one()?;
                self.decl(r, "cucc_dyn")?;
            }
            OpKind::Memcpy => {
                let len = self.n(ops[2]).to_string();
                self.check_access(ops[1], &len, 0, 0, loc)?;
                self.check_access(ops[0], &len, 0, checks::SITE_WRITE, loc)?;
                let s = format!(
                    "memcpy({}, {}, (size_t){});",
                    self.n(ops[0]),
                    self.n(ops[1]),
                    self.n(ops[2])
                );
                self.line(&s);
            }
            OpKind::Memset => {
                let len = self.n(ops[2]).to_string();
                self.check_access(ops[0], &len, 0, checks::SITE_WRITE, loc)?;
                let s = format!(
                    "memset({}, {}, (size_t){});",
                    self.n(ops[0]),
                    self.n(ops[1]),
                    self.n(ops[2])
                );
                self.line(&s);
            }
            OpKind::AtomicRmw { op: aop, .. } => {
                let r = one()?;
                let size = self.module.types.size_of(self.func.value_type(r)).max(1);
                let flags = checks::SITE_WRITE | checks::SITE_ATOMIC;
                self.check_access(ops[0], &size.to_string(), size, flags, loc)?;
                if self.points_to_shared(ops[0]) {
                    // One CPU thread runs a whole block: shared memory needs
                    // no atomic instructions.
                    self.shared_rmw(*aop, ops[0], ops[1], r, loc)?;
                } else {
                    let e = self.atomic_rmw(*aop, ops[0], ops[1], loc)?;
                    self.decl(r, &e)?;
                }
            }
            OpKind::AtomicCas { .. } => {
                let r = one()?;
                let size = self.module.types.size_of(self.func.value_type(r)).max(1);
                let flags = checks::SITE_WRITE | checks::SITE_ATOMIC;
                self.check_access(ops[0], &size.to_string(), size, flags, loc)?;
                let t = self.vty(r)?;
                let (u, cmp, new) = match self.ty_of(r) {
                    Type::Float(FloatKind::F32) => (
                        "uint32_t",
                        format!("cucc_f32_bits({})", self.n(ops[1])),
                        format!("cucc_f32_bits({})", self.n(ops[2])),
                    ),
                    Type::Float(FloatKind::F64) => (
                        "uint64_t",
                        format!("cucc_f64_bits({})", self.n(ops[1])),
                        format!("cucc_f64_bits({})", self.n(ops[2])),
                    ),
                    _ => (t, self.n(ops[1]).to_string(), self.n(ops[2]).to_string()),
                };
                let old = format!("{}_old", self.n(r));
                self.line(&format!("{u} {old} = {cmp};"));
                if self.points_to_shared(ops[0]) {
                    // Shared memory: one CPU thread runs the block, a plain
                    // compare-and-store is enough.
                    let p = self.n(ops[0]).to_string();
                    self.line(&format!(
                        "{{ {u} cucc_cur = *({u} *){p}; if (cucc_cur == {old}) *({u} *){p} = {new}; else {old} = cucc_cur; }}"
                    ));
                } else {
                    self.line(&format!(
                        "__atomic_compare_exchange_n(({u} *){}, &{old}, {new}, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);",
                        self.n(ops[0])
                    ));
                }
                let e = match self.ty_of(r) {
                    Type::Float(FloatKind::F32) => format!("cucc_bits_f32({old})"),
                    Type::Float(FloatKind::F64) => format!("cucc_bits_f64({old})"),
                    _ => old,
                };
                self.decl(r, &e)?;
            }
            OpKind::Fence { .. } => self.line("__atomic_thread_fence(__ATOMIC_SEQ_CST);"),
            OpKind::Prefetch => {
                // One prefetch per cache line; integer arithmetic, as the
                // range may lie outside any object. (Starting at the line
                // of the first byte and covering a straddled last line made
                // kmeans 8% slower: the trip count then depends on the
                // address, not only on the block-invariant length.)
                let s = format!(
                    "{{ const uintptr_t cucc_pf = (uintptr_t){}; for (int64_t cucc_o = 0; cucc_o < (int64_t){}; cucc_o += 64) __builtin_prefetch((const void *)(cucc_pf + (uintptr_t)cucc_o), 0, 3); }}",
                    self.n(ops[0]),
                    self.n(ops[1])
                );
                self.line(&s);
            }
            OpKind::BlockDim(d) => {
                let r = one()?;
                self.decl(r, &format!("cucc_block{}", d.index()))?;
            }
            OpKind::GridDim(d) => {
                let r = one()?;
                self.decl(r, &format!("cucc_grid{}", d.index()))?;
            }
            OpKind::WarpSize => {
                let r = one()?;
                self.decl(r, "32u")?;
            }
            OpKind::AllocDistinct => {
                let r = one()?;
                let list: Vec<String> = ops.iter().map(|&v| self.n(v).to_string()).collect();
                let e = format!(
                    "__cucc_alloc_distinct({}u, (const void *const[]){{{}}}) != 0",
                    ops.len(),
                    list.join(", ")
                );
                self.decl(r, &e)?;
            }
            OpKind::Clock { wide } => {
                let r = one()?;
                let e = if *wide {
                    "cucc_clock64()"
                } else {
                    "(uint32_t)cucc_clock64()"
                };
                self.decl(r, e)?;
            }
            OpKind::Printf { format } => {
                let mut s = format!("cucc_printf(\"{}\"", c_escape(format));
                for &v in ops {
                    s.push_str(", ");
                    match self.ty_of(v) {
                        Type::Float(FloatKind::F16 | FloatKind::BF16) => {
                            s.push_str(&format!("(double){}", self.as_float(v)))
                        }
                        _ => s.push_str(self.n(v)),
                    }
                }
                s.push_str(");");
                self.line(&s);
            }
            OpKind::Trap { message, assert } => {
                let f = if *assert {
                    "__cucc_assert_trap"
                } else {
                    "__cucc_trap"
                };
                let s = format!("{f}(\"{}\");", c_escape(message));
                self.line(&s);
                self.line("return;");
            }
            OpKind::ThreadId(_) | OpKind::BlockId(_) | OpKind::LaneId => {
                return Err(self.err(
                    loc,
                    format!(
                        "`{}` in a launch-form function (lower-launch replaces it)",
                        data.kind.mnemonic()
                    ),
                ))
            }
            OpKind::Barrier(_)
            | OpKind::BarrierReduce(_)
            | OpKind::Shuffle(_)
            | OpKind::Vote(_)
            | OpKind::ActiveMask => {
                return Err(self.err(
                    loc,
                    format!(
                    "`{}` survived the cpuify pipeline; the C emitter cannot synchronise threads",
                    data.kind.mnemonic()
                ),
                ))
            }
            OpKind::TexRef(g) => {
                let r = one()?;
                let gd = &self.module.globals[*g];
                debug_assert!(matches!(gd.kind, cucc_ir::GlobalKind::Texture { .. }));
                let e = texref_c_name(&gd.name);
                self.decl(r, &e)?;
            }
            OpKind::TexFetch(kind) => self.tex_fetch(op, *kind)?,
        }
        Ok(())
    }

    /// `tex.fetch`: one call of the prelude's `cucc_tex_fetch` into a small
    /// buffer, then one variable per channel. An invalid handle traps.
    fn tex_fetch(&mut self, op: Op, kind: TexKind) -> Result<(), CpuifyError> {
        let data = &self.func.ops[op];
        let loc = data.loc;
        let ops = data.operands.clone();
        let results = data.results.clone();
        // The verifier checked the handle and coordinates, 1 to 4 results,
        // all of one type.
        debug_assert_eq!(ops.len(), 1 + kind.coords());
        debug_assert!((1..=4).contains(&results.len()));
        let first = results[0];
        debug_assert!(results
            .iter()
            .all(|&r| self.func.value_type(r) == self.func.value_type(first)));
        let Some((out_kind, cty)) = tex_out_kind(self.ty_of(first)) else {
            return Err(self.err(
                loc,
                format!(
                    "`tex.fetch` cannot produce {:?} (f32, i32, i16 or i8)",
                    self.ty_of(first)
                ),
            ));
        };
        if kind == TexKind::Fetch1DLane {
            return self.tex_fetch_lane(op, out_kind, cty);
        }
        let (icoord, fcoords) = match kind {
            TexKind::Fetch1D => (
                format!("(int32_t){}", self.n(ops[1])),
                ["0.0f".to_string(), "0.0f".to_string(), "0.0f".to_string()],
            ),
            _ => {
                let mut f: [String; 3] = std::array::from_fn(|_| "0.0f".to_string());
                for (slot, &v) in f.iter_mut().zip(&ops[1..]) {
                    *slot = self.as_float(v);
                }
                ("0".to_string(), f)
            }
        };
        let kind_code = match kind {
            TexKind::Fetch1D | TexKind::Fetch1DLane => 0,
            TexKind::Tex1D => 1,
            TexKind::Tex2D => 2,
            TexKind::Tex3D => 3,
        };
        let buf = format!("{}_tex", self.n(first));
        if let Some(view) = self
            .tex_views
            .get(&(ops[0], out_kind, results.len()))
            .cloned()
        {
            return self.tex_fetch_view(&view, ops[0], &icoord, out_kind, cty, &results);
        }
        let s = format!("{cty} {buf}[4];");
        self.line(&s);
        let s = format!(
            "if (__builtin_expect(cucc_tex_fetch(launch, {}, {kind_code}, {icoord}, {}, {}, {}, {out_kind}, {}u, {buf}), 0)) {{ __cucc_trap(\"texture fetch through a handle that names no texture\"); return; }}",
            self.n(ops[0]),
            fcoords[0],
            fcoords[1],
            fcoords[2],
            results.len()
        );
        self.line(&s);
        for (i, &r) in results.iter().enumerate() {
            self.decl(r, &format!("{buf}[{i}]"))?;
        }
        Ok(())
    }

    /// A `tex1Dfetch` through a view: one bounds test and the channels
    /// loaded into scalar variables (no buffer in memory, so the values stay
    /// in registers); any other case (out of range, a texture the view does
    /// not cover) calls the out-of-line general path.
    fn tex_fetch_view(
        &mut self,
        view: &str,
        handle: Value,
        icoord: &str,
        out_kind: u8,
        cty: &str,
        results: &[Value],
    ) -> Result<(), CpuifyError> {
        let size = tex_elem_size(out_kind);
        let names: Vec<String> = results.iter().map(|&r| self.n(r).to_string()).collect();
        self.line(&format!("{cty} {};", names.join(", ")));
        let index = format!("(uint64_t)(int64_t){icoord}");
        self.line(&format!(
            "if (__builtin_expect({index} < {view}.width, 1)) {{"
        ));
        let texel = size * results.len();
        for (k, name) in names.iter().enumerate() {
            self.line(&format!(
                "  memcpy(&{name}, {view}.data + {index} * {texel} + {}, {size});",
                k * size
            ));
        }
        if out_kind == 1 {
            self.line(&format!("}} else if ({index} < {view}_w.width) {{"));
            for (k, name) in names.iter().enumerate() {
                self.line(&format!(
                    "  {name} = cucc_tex_widen({view}_w, {index}, {k});"
                ));
            }
        }
        self.line("} else {");
        let buf = format!("{}_tex", names[0]);
        self.line(&format!("  {cty} {buf}[4];"));
        self.line(&format!(
            "  if (cucc_tex_fetch_cold(launch, {}, {icoord}, {out_kind}, {}u, {buf})) {{ __cucc_trap(\"texture fetch through a handle that names no texture\"); return; }}",
            self.n(handle),
            results.len()
        ));
        for (k, name) in names.iter().enumerate() {
            self.line(&format!("  {name} = {buf}[{k}];"));
        }
        self.line("}");
        Ok(())
    }

    /// `tex.fetch fetch1d.lane`: channel `lane` (3 and above: the last) of
    /// a four-channel texel, one load from the view when it covers the
    /// texture, else channel `lane` of the general path's four.
    fn tex_fetch_lane(&mut self, op: Op, out_kind: u8, cty: &str) -> Result<(), CpuifyError> {
        let data = &self.func.ops[op];
        let (h, i, lane, r) = (
            data.handle(),
            data.coords()[0],
            data.coords()[1],
            data.results[0],
        );
        let size = tex_elem_size(out_kind);
        let name = self.n(r).to_string();
        let icoord = format!("(int32_t){}", self.n(i));
        let lane_var = format!("{name}_lane");
        self.line(&format!(
            "const uint32_t {lane_var} = {l} < 3u ? {l} : 3u;",
            l = self.n(lane)
        ));
        self.line(&format!("{cty} {name};"));
        let view = self.tex_views.get(&(h, out_kind, 4)).cloned();
        let buf = format!("{name}_tex");
        let general = format!(
            "if (__builtin_expect(cucc_tex_fetch{}(launch, {}, {}{icoord}, {}{out_kind}, 4u, {buf}), 0)) {{ __cucc_trap(\"texture fetch through a handle that names no texture\"); return; }}",
            if view.is_some() { "_cold" } else { "" },
            self.n(h),
            if view.is_some() { "" } else { "0, " },
            if view.is_some() { "" } else { "0.0f, 0.0f, 0.0f, " },
        );
        match view {
            Some(view) => {
                let index = format!("(uint64_t)(int64_t){icoord}");
                self.line(&format!(
                    "if (__builtin_expect({index} < {view}.width, 1)) {{"
                ));
                self.line(&format!(
                    "  memcpy(&{name}, {view}.data + {index} * {} + (uint64_t){lane_var} * {size}, {size});",
                    4 * size
                ));
                if out_kind == 1 {
                    self.line(&format!("}} else if ({index} < {view}_w.width) {{"));
                    self.line(&format!(
                        "  {name} = cucc_tex_widen({view}_w, {index}, {lane_var});"
                    ));
                }
                self.line("} else {");
                self.line(&format!("  {cty} {buf}[4];"));
                self.line(&format!("  {general}"));
                self.line(&format!("  {name} = {buf}[{lane_var}];"));
                self.line("}");
            }
            None => {
                self.line(&format!("{cty} {buf}[4];"));
                self.line(&general);
                self.line(&format!("{name} = {buf}[{lane_var}];"));
            }
        }
        Ok(())
    }

    /// Resolves, once in the prologue, each texture that `tex1Dfetch`es
    /// reach through a kernel parameter: a texture object cannot change
    /// while a kernel runs, and the descriptor read inside loops would be
    /// reloaded after every store (the kernel's `char *` stores may alias
    /// it), so each fetch becomes a bounds test and a load from locals.
    fn tex_views(&mut self, head: &mut String) {
        let params = self.func.param_values();
        let mut keys = Vec::new();
        for (_, op) in self.func.walk() {
            let data = &self.func.ops[op];
            let channels = match data.kind {
                OpKind::TexFetch(TexKind::Fetch1D) => data.results.len(),
                OpKind::TexFetch(TexKind::Fetch1DLane) => 4,
                _ => continue,
            };
            let (h, Some(&first)) = (data.handle(), data.results.first()) else {
                continue;
            };
            let Some((out_kind, _)) = tex_out_kind(self.ty_of(first)) else {
                continue;
            };
            let key = (h, out_kind, channels);
            if params.contains(&h) && !self.tex_views.contains_key(&key) && !keys.contains(&key) {
                keys.push(key);
            }
        }
        for key in keys {
            let (h, out_kind, n) = key;
            let name = format!("cucc_tv_{}_{out_kind}_{n}", h.index());
            let _ = writeln!(
                head,
                "  const cucc_tex_view {name} = cucc_tex_view_of(launch, {}, {out_kind}, {n}u);",
                self.n(h)
            );
            // 32-bit integer fetches of 8- and 16-bit texels (PTX's).
            if out_kind == 1 {
                let _ = writeln!(
                    head,
                    "  const cucc_tex_wview {name}_w = cucc_tex_wview_of(launch, {}, {n}u);",
                    self.n(h)
                );
            }
            self.tex_views.insert(key, name);
        }
    }

    fn constant(&self, r: Value, bits: u64) -> String {
        match self.ty_of(r) {
            Type::Int(1) => (if bits & 1 == 1 { "true" } else { "false" }).to_string(),
            Type::Int(64) => format!("UINT64_C({bits:#x})"),
            Type::Int(_) => format!("{bits:#x}u"),
            Type::Float(FloatKind::F32) => {
                let f = f32::from_bits(bits as u32);
                if f.is_finite() {
                    format!("{f:?}f")
                } else {
                    format!("cucc_bits_f32({:#x}u)", bits as u32)
                }
            }
            Type::Float(FloatKind::F64) => {
                let f = f64::from_bits(bits);
                if f.is_finite() {
                    format!("{f:?}")
                } else {
                    format!("cucc_bits_f64(UINT64_C({bits:#x}))")
                }
            }
            Type::Float(_) => format!("(uint16_t){:#x}u", bits & 0xffff),
            _ => format!("(char *)(uintptr_t)UINT64_C({bits:#x})"),
        }
    }

    /// Integer division or remainder without traps: C's operator when the
    /// divisor is known to be safe (a constant other than 0, and other than
    /// -1 for signed ops, or a launch dimension), else the prelude's
    /// `cucc_{s,u}{div,rem}{32,64}`, which give NVIDIA GPUs' values.
    fn division(&self, b: BinOp, bits: u8, x: Value, y: Value) -> String {
        let u = Self::unsigned_ty(bits);
        let signed = matches!(b, BinOp::SDiv | BinOp::SRem);
        let safe = self
            .func
            .defining_op(y)
            .is_some_and(|o| match self.func.ops[o].kind {
                OpKind::Const { bits: k } => {
                    let k = cucc_ir::interp::eval::mask(u32::from(bits), k);
                    let ones = cucc_ir::interp::eval::mask(u32::from(bits), u64::MAX);
                    k != 0 && !(signed && k == ones)
                }
                OpKind::BlockDim(_) | OpKind::GridDim(_) => bits >= 32,
                _ => false,
            });
        let (a, c) = if signed {
            (self.as_signed(x), self.as_signed(y))
        } else {
            (self.n(x).to_string(), self.n(y).to_string())
        };
        let sym = if matches!(b, BinOp::SDiv | BinOp::UDiv) {
            '/'
        } else {
            '%'
        };
        if safe {
            return format!("({u})({a} {sym} {c})");
        }
        let name = match b {
            BinOp::SDiv => "sdiv",
            BinOp::UDiv => "udiv",
            BinOp::SRem => "srem",
            _ => "urem",
        };
        let n = if bits > 32 { 64 } else { 32 };
        format!("({u})cucc_{name}{n}({a}, {c})")
    }

    /// A shift with PTX's clamping (`shift`): the plain C shift when the
    /// amount is known to be below the width, else a guarded one.
    fn shift(&self, b: BinOp, bits: u8, x: Value, y: Value) -> String {
        let u = Self::unsigned_ty(bits);
        let w = u64::from(bits);
        let (a, c) = (self.n(x), self.n(y));
        let sa = self.as_signed(x);
        let safe = super::shift::amount_in_range(self.module, self.func, &self.bounded_ivs, y, w);
        match (b, safe) {
            (BinOp::Shl, true) => format!("({u})({a} << {c})"),
            (BinOp::LShr, true) => format!("({u})({a} >> {c})"),
            (_, true) => format!("({u})({sa} >> {c})"),
            (BinOp::Shl, false) => format!("({u})({c} < {w}u ? {a} << {c} : 0)"),
            (BinOp::LShr, false) => format!("({u})({c} < {w}u ? {a} >> {c} : 0)"),
            (_, false) => format!("({u})({sa} >> ({c} < {w}u ? {c} : {}u))", w - 1),
        }
    }

    fn binary(
        &self,
        b: BinOp,
        flags: ArithFlags,
        x: Value,
        y: Value,
        r: Value,
    ) -> Result<String, CpuifyError> {
        if b.is_float() {
            let k = self.ty_of(r).float_kind().unwrap_or(FloatKind::F32);
            let (a, c) = (self.as_float(x), self.as_float(y));
            let dbl = k == FloatKind::F64;
            let e = match b {
                BinOp::FAdd => format!("{a} + {c}"),
                BinOp::FSub => format!("{a} - {c}"),
                BinOp::FMul => format!("{a} * {c}"),
                BinOp::FDiv => format!("{a} / {c}"),
                BinOp::FRem => format!("{}({a}, {c})", if dbl { "fmod" } else { "fmodf" }),
                // minNum/maxNum as a select gcc vectorises (`fminf` is a
                // libm call): a NaN `c` gives `a`, a NaN `a` gives `c`.
                BinOp::FMin | BinOp::FMax if matches!(k, FloatKind::F32 | FloatKind::F64) => {
                    let lt = if b == BinOp::FMin { '<' } else { '>' };
                    format!("({c} != {c} || {a} {lt} {c} ? {a} : {c})")
                }
                BinOp::FMin => format!("{}({a}, {c})", if dbl { "fmin" } else { "fminf" }),
                _ => format!("{}({a}, {c})", if dbl { "fmax" } else { "fmaxf" }),
            };
            return Ok(Self::from_float(k, e));
        }
        let bits = self.int_bits(r);
        let u = Self::unsigned_ty(bits);
        let s = Self::signed_ty(bits);
        let (a, c) = (self.n(x), self.n(y));
        let (sa, sc) = (self.as_signed(x), self.as_signed(y));
        // `nsw`: signed C arithmetic, whose overflow is undefined, so gcc
        // may treat the result as an exact (non-wrapping) sum or product.
        // Below `int` C would promote, and the truncation back wraps.
        if flags.nsw && b.takes_nsw() && (bits == 32 || bits == 64) {
            let sym = match b {
                BinOp::Add => "+",
                BinOp::Sub => "-",
                _ => "*",
            };
            return Ok(format!("({u})({sa} {sym} {sc})"));
        }
        let e = match b {
            BinOp::Add => format!("({u})({a} + {c})"),
            BinOp::Sub => format!("({u})({a} - {c})"),
            BinOp::Mul => format!("({u})({a} * {c})"),
            BinOp::SDiv | BinOp::UDiv | BinOp::SRem | BinOp::URem => self.division(b, bits, x, y),
            BinOp::And => format!("({u})({a} & {c})"),
            BinOp::Or => format!("({u})({a} | {c})"),
            BinOp::Xor => format!("({u})({a} ^ {c})"),
            BinOp::Shl | BinOp::LShr | BinOp::AShr => self.shift(b, bits, x, y),
            BinOp::SMin => format!("({u})({sa} < {sc} ? {sa} : {sc})"),
            BinOp::SMax => format!("({u})({sa} > {sc} ? {sa} : {sc})"),
            BinOp::UMin => format!("({a} < {c} ? {a} : {c})"),
            BinOp::UMax => format!("({a} > {c} ? {a} : {c})"),
            BinOp::SMulHi | BinOp::UMulHi => {
                let signed = b == BinOp::SMulHi;
                if bits == 64 {
                    let w = if signed {
                        "__int128"
                    } else {
                        "unsigned __int128"
                    };
                    let (p, q) = if signed {
                        (sa, sc)
                    } else {
                        (a.to_string(), c.to_string())
                    };
                    format!("({u})((({w}){p} * ({w}){q}) >> 64)")
                } else {
                    let w = if signed { "int64_t" } else { "uint64_t" };
                    let (p, q) = if signed {
                        (sa, sc)
                    } else {
                        (a.to_string(), c.to_string())
                    };
                    format!("({u})((({w}){p} * ({w}){q}) >> {bits})")
                }
            }
            _ => {
                let _ = s;
                return Err(self.err(self.func.loc, "float op on integers"));
            }
        };
        Ok(e)
    }

    fn unary(&self, op: UnOp, x: Value) -> String {
        let a = self.n(x);
        let bits = self.int_bits(x);
        let u = Self::unsigned_ty(bits);
        match op {
            UnOp::FNeg => match self.ty_of(x) {
                Type::Float(FloatKind::F16 | FloatKind::BF16) => format!("({u})({a} ^ 0x8000u)"),
                _ => format!("-{a}"),
            },
            UnOp::Popc => {
                if bits == 64 {
                    format!("({u})__builtin_popcountll({a})")
                } else {
                    format!("({u})__builtin_popcount((uint32_t){a})")
                }
            }
            UnOp::Clz => {
                if bits == 64 {
                    format!("({u})({a} ? __builtin_clzll({a}) : 64)")
                } else {
                    format!(
                        "({u})({a} ? __builtin_clz((uint32_t){a}) - {} : {bits})",
                        32 - u32::from(bits)
                    )
                }
            }
            UnOp::Ctz => {
                if bits == 64 {
                    format!("({u})({a} ? __builtin_ctzll({a}) : 64)")
                } else {
                    format!("({u})({a} ? __builtin_ctz((uint32_t){a}) : {bits})")
                }
            }
            UnOp::Brev => {
                if bits == 64 {
                    format!("cucc_brev64({a})")
                } else {
                    format!(
                        "({u})(cucc_brev32((uint32_t){a}) >> {})",
                        32 - u32::from(bits)
                    )
                }
            }
        }
    }

    fn cmp(&self, p: CmpPred, x: Value, y: Value) -> String {
        if p.is_float() {
            let (a, b) = (self.as_float(x), self.as_float(y));
            return match p {
                CmpPred::FOeq => format!("{a} == {b}"),
                CmpPred::FOne => format!("({a} < {b} || {a} > {b})"),
                CmpPred::FOlt => format!("{a} < {b}"),
                CmpPred::FOle => format!("{a} <= {b}"),
                CmpPred::FOgt => format!("{a} > {b}"),
                CmpPred::FOge => format!("{a} >= {b}"),
                CmpPred::FUeq => format!("!({a} < {b} || {a} > {b})"),
                CmpPred::FUne => format!("{a} != {b}"),
                CmpPred::FUlt => format!("!({a} >= {b})"),
                CmpPred::FUle => format!("!({a} > {b})"),
                CmpPred::FUgt => format!("!({a} <= {b})"),
                CmpPred::FUge => format!("!({a} < {b})"),
                CmpPred::FOrd => format!("({a} == {a} && {b} == {b})"),
                _ => format!("({a} != {a} || {b} != {b})"),
            };
        }
        let ptr = self.ty_of(x).is_ptr();
        let (a, b) = if ptr {
            (
                format!("(uintptr_t){}", self.n(x)),
                format!("(uintptr_t){}", self.n(y)),
            )
        } else {
            (self.n(x).to_string(), self.n(y).to_string())
        };
        let (sa, sb) = if ptr {
            (
                format!("(intptr_t){}", self.n(x)),
                format!("(intptr_t){}", self.n(y)),
            )
        } else {
            (self.as_signed(x), self.as_signed(y))
        };
        match p {
            CmpPred::Eq => format!("{a} == {b}"),
            CmpPred::Ne => format!("{a} != {b}"),
            CmpPred::Slt => format!("{sa} < {sb}"),
            CmpPred::Sle => format!("{sa} <= {sb}"),
            CmpPred::Sgt => format!("{sa} > {sb}"),
            CmpPred::Sge => format!("{sa} >= {sb}"),
            CmpPred::Ult => format!("{a} < {b}"),
            CmpPred::Ule => format!("{a} <= {b}"),
            CmpPred::Ugt => format!("{a} > {b}"),
            _ => format!("{a} >= {b}"),
        }
    }

    fn cast(&self, c: CastOp, x: Value, r: Value) -> Result<String, CpuifyError> {
        let a = self.n(x);
        let rt = self.ty_of(r);
        let rty = self.vty(r)?;
        Ok(match c {
            CastOp::Trunc => {
                if rt.int_bits() == Some(1) {
                    format!("({a} & 1) != 0")
                } else {
                    format!("({rty}){a}")
                }
            }
            CastOp::ZExt => format!("({rty}){a}"),
            CastOp::SExt => {
                let rb = rt.int_bits().unwrap_or(64);
                if rb == 64 {
                    format!("({rty}){}", self.wide_signed(x))
                } else {
                    format!("({rty})({}){}", Self::signed_ty(rb), self.as_signed(x))
                }
            }
            CastOp::FpTrunc | CastOp::FpExt => {
                let k = rt.float_kind().unwrap_or(FloatKind::F32);
                let src = self.as_float(x);
                match k {
                    FloatKind::F16 | FloatKind::BF16 => {
                        Self::from_float(k, format!("(float){src}"))
                    }
                    _ => format!("({rty}){src}"),
                }
            }
            CastOp::FpToSi | CastOp::FpToUi => {
                let bits = rt.int_bits().unwrap_or(32);
                let signed = c == CastOp::FpToSi;
                let src = self.as_float(x);
                let f = match (signed, bits) {
                    (true, 32) if self.ty_of(x).float_kind() == Some(FloatKind::F32) => {
                        "cucc_ff2i32"
                    }
                    (true, 1 | 8) => "cucc_f2i8",
                    (true, 16) => "cucc_f2i16",
                    (true, 32) => "cucc_f2i32",
                    (true, _) => "cucc_f2i64",
                    (false, 1 | 8) => "cucc_f2u8",
                    (false, 16) => "cucc_f2u16",
                    (false, 32) => "cucc_f2u32",
                    (false, _) => "cucc_f2u64",
                };
                format!("({rty}){f}({src})")
            }
            CastOp::SiToFp | CastOp::UiToFp => {
                let k = rt.float_kind().unwrap_or(FloatKind::F32);
                let src = if c == CastOp::SiToFp {
                    self.as_signed(x)
                } else {
                    a.to_string()
                };
                match k {
                    FloatKind::F64 => format!("(double){src}"),
                    FloatKind::F32 => format!("(float){src}"),
                    _ => Self::from_float(k, format!("(float){src}")),
                }
            }
            CastOp::Bitcast => match (self.ty_of(x), rt) {
                (Type::Float(FloatKind::F32), Type::Int(_)) => format!("cucc_f32_bits({a})"),
                (Type::Float(FloatKind::F64), Type::Int(_)) => format!("cucc_f64_bits({a})"),
                (Type::Int(_), Type::Float(FloatKind::F32)) => format!("cucc_bits_f32({a})"),
                (Type::Int(_), Type::Float(FloatKind::F64)) => format!("cucc_bits_f64({a})"),
                _ => format!("({rty}){a}"),
            },
            CastOp::PtrToInt => format!("({rty})(uintptr_t){a}"),
            CastOp::IntToPtr => format!("(char *)(uintptr_t){a}"),
            CastOp::SpaceCast => a.to_string(),
        })
    }

    /// A read-modify-write of shared memory as plain C.
    fn shared_rmw(
        &mut self,
        op: AtomicOp,
        p: Value,
        v: Value,
        r: Value,
        loc: Loc,
    ) -> Result<(), CpuifyError> {
        let t = self.vty(v)?;
        let (pn, vn, rn) = (
            self.n(p).to_string(),
            self.n(v).to_string(),
            self.n(r).to_string(),
        );
        let bits = self.ty_of(v).int_bits().unwrap_or(32);
        let s = Self::signed_ty(bits);
        let float = self.ty_of(v).float_kind();
        if matches!(float, Some(FloatKind::F16 | FloatKind::BF16)) {
            return Err(self.err(loc, "atomics on 16-bit floats have no C lowering"));
        }
        let dbl = float == Some(FloatKind::F64);
        let new = match op {
            AtomicOp::Add | AtomicOp::FAdd if float.is_some() => format!("{rn} + {vn}"),
            AtomicOp::Add => format!("({t})({rn} + {vn})"),
            AtomicOp::Sub => format!("({t})({rn} - {vn})"),
            AtomicOp::And => format!("({t})({rn} & {vn})"),
            AtomicOp::Or => format!("({t})({rn} | {vn})"),
            AtomicOp::Xor => format!("({t})({rn} ^ {vn})"),
            AtomicOp::SMin => format!("(({s}){rn} < ({s}){vn} ? {rn} : {vn})"),
            AtomicOp::SMax => format!("(({s}){rn} > ({s}){vn} ? {rn} : {vn})"),
            AtomicOp::UMin => format!("({rn} < {vn} ? {rn} : {vn})"),
            AtomicOp::UMax => format!("({rn} > {vn} ? {rn} : {vn})"),
            AtomicOp::Xchg => vn.clone(),
            AtomicOp::Inc => format!("({rn} >= {vn} ? 0 : ({t})({rn} + 1))"),
            AtomicOp::Dec => format!("(({rn} == 0 || {rn} > {vn}) ? {vn} : ({t})({rn} - 1))"),
            AtomicOp::FAdd => return Err(self.err(loc, "`fadd` atomic on an integer")),
            AtomicOp::FMin => format!("{}({rn}, {vn})", if dbl { "fmin" } else { "fminf" }),
            AtomicOp::FMax => format!("{}({rn}, {vn})", if dbl { "fmax" } else { "fmaxf" }),
        };
        self.line(&format!("{} = *({t} *){pn};", c_decl(t, &rn, true)));
        self.line(&format!("*({t} *){pn} = {new};"));
        Ok(())
    }

    fn atomic_rmw(
        &self,
        op: AtomicOp,
        p: Value,
        v: Value,
        loc: Loc,
    ) -> Result<String, CpuifyError> {
        let (pn, vn) = (self.n(p), self.n(v));
        let t = self.vty(v)?;
        let bits = match self.ty_of(v) {
            Type::Int(b) => u32::from(*b),
            Type::Float(k) => (k.bytes() * 8) as u32,
            _ => 64,
        };
        let float = self.ty_of(v).is_float();
        let builtin = |name: &str| format!("__atomic_{name}(({t} *){pn}, {vn}, __ATOMIC_RELAXED)");
        let helper = |name: &str, ty: &str| format!("cucc_atomic_{name}(({ty} *){pn}, ({ty}){vn})");
        Ok(match op {
            AtomicOp::Add if !float => builtin("fetch_add"),
            AtomicOp::Sub => builtin("fetch_sub"),
            AtomicOp::And => builtin("fetch_and"),
            AtomicOp::Or => builtin("fetch_or"),
            AtomicOp::Xor => builtin("fetch_xor"),
            AtomicOp::Xchg => builtin("exchange_n"),
            AtomicOp::Add | AtomicOp::FAdd if bits == 32 => helper("fadd_f32", "float"),
            AtomicOp::Add | AtomicOp::FAdd if bits == 64 => helper("fadd_f64", "double"),
            AtomicOp::FMin if bits == 32 => helper("fmin_f32", "float"),
            AtomicOp::FMax if bits == 32 => helper("fmax_f32", "float"),
            AtomicOp::FMin if bits == 64 => helper("fmin_f64", "double"),
            AtomicOp::FMax if bits == 64 => helper("fmax_f64", "double"),
            AtomicOp::SMin if bits == 32 => format!("(uint32_t){}", helper("smin_32", "int32_t")),
            AtomicOp::SMax if bits == 32 => format!("(uint32_t){}", helper("smax_32", "int32_t")),
            AtomicOp::UMin if bits == 32 => helper("umin_32", "uint32_t"),
            AtomicOp::UMax if bits == 32 => helper("umax_32", "uint32_t"),
            AtomicOp::SMin if bits == 64 => format!("(uint64_t){}", helper("smin_64", "int64_t")),
            AtomicOp::SMax if bits == 64 => format!("(uint64_t){}", helper("smax_64", "int64_t")),
            AtomicOp::UMin if bits == 64 => helper("umin_64", "uint64_t"),
            AtomicOp::UMax if bits == 64 => helper("umax_64", "uint64_t"),
            AtomicOp::Inc if bits == 32 => helper("inc_32", "uint32_t"),
            AtomicOp::Dec if bits == 32 => helper("dec_32", "uint32_t"),
            _ => {
                return Err(self.err(
                    loc,
                    format!("atomic `{op}` on a {bits}-bit value has no C lowering"),
                ))
            }
        })
    }

    fn result_vars(&mut self, op: Op) -> Result<Vec<String>, CpuifyError> {
        let results = self.func.ops[op].results.clone();
        let mut vars = Vec::new();
        for r in results {
            let s = format!("{};", c_decl(self.vty(r)?, self.n(r), false));
            self.line(&s);
            vars.push(self.n(r).to_string());
        }
        Ok(vars)
    }

    fn put_if(&mut self, op: Op) -> Result<(), CpuifyError> {
        let data = self.func.ops[op].clone();
        let vars = self.result_vars(op)?;
        self.line(&format!("if ({}) {{", self.n(data.cond())));
        self.indent += 1;
        self.put_region(data.then_region(), YieldTo::Vars(&vars))?;
        self.indent -= 1;
        let else_empty = self.func.regions[data.else_region()].ops.len() <= 1 && vars.is_empty();
        if else_empty {
            self.line("}");
        } else {
            self.line("} else {");
            self.indent += 1;
            self.put_region(data.else_region(), YieldTo::Vars(&vars))?;
            self.indent -= 1;
            self.line("}");
        }
        Ok(())
    }

    fn put_for(&mut self, op: Op, unsigned: bool) -> Result<(), CpuifyError> {
        let data = self.func.ops[op].clone();
        let region = data.body();
        let args = self.func.regions[region].args.clone();
        // The verifier checked lb, ub, step and one region argument per
        // carried value after the iv.
        debug_assert!(data.operands.len() >= 3 && !args.is_empty());
        let (lb, ub, step) = data.bounds();
        // Carried values live in the region-argument variables; the results
        // are the same variables after the loop.
        let mut vars = Vec::new();
        for (k, &a) in args[1..].iter().enumerate() {
            let init = data.inits()[k];
            let s = format!(
                "{} = {};",
                c_decl(self.vty(a)?, self.n(a), false),
                self.n(init)
            );
            self.line(&s);
            vars.push(self.n(a).to_string());
        }
        let iv = args[0];
        let ty = self.vty(iv)?;
        let bits = self.int_bits(iv);
        let unit_step = self
            .func
            .defining_op(step)
            .is_some_and(|o| self.func.ops[o].kind == OpKind::Const { bits: 1 });
        if !unsigned && unit_step && (bits == 32 || bits == 64) {
            // Signed compare, step 1: `iv < ub` before each increment, so
            // `iv + 1` never passes the signed maximum and a signed C counter
            // (which gcc knows does not wrap) runs the same iterations.
            let s = Self::signed_ty(bits);
            let iv_n = self.n(iv).to_string();
            self.line(&format!(
                "for ({s} {iv_n}_c = ({s}){lb}; {iv_n}_c < ({s}){ub}; ++{iv_n}_c) {{",
                lb = self.n(lb),
                ub = self.n(ub),
            ));
            self.indent += 1;
            self.line(&format!("const {ty} {iv_n} = ({ty}){iv_n}_c;"));
            self.put_region(region, YieldTo::Vars(&vars))?;
            self.indent -= 1;
            self.line("}");
            for (&r, var) in data.results.iter().zip(&vars) {
                let s = format!("{} = {var};", c_decl(self.vty(r)?, self.n(r), true));
                self.line(&s);
            }
            return Ok(());
        }
        let cond = if unsigned {
            format!("{} < {}", self.n(iv), self.n(ub))
        } else {
            let s = Self::signed_ty(self.int_bits(iv));
            format!("({s}){} < ({s}){}", self.n(iv), self.n(ub))
        };
        self.line(&format!(
            "for ({ty} {iv_n} = {lb}; {cond}; {iv_n} += {step}) {{",
            iv_n = self.n(iv),
            lb = self.n(lb),
            step = self.n(step)
        ));
        self.indent += 1;
        self.put_region(region, YieldTo::Vars(&vars))?;
        self.indent -= 1;
        self.line("}");
        for (&r, var) in data.results.iter().zip(&vars) {
            let s = format!("{} = {var};", c_decl(self.vty(r)?, self.n(r), true));
            self.line(&s);
        }
        Ok(())
    }

    fn put_while(&mut self, op: Op) -> Result<(), CpuifyError> {
        let data = self.func.ops[op].clone();
        let (before, after) = (data.before(), data.after());
        let bargs = self.func.regions[before].args.clone();
        let aargs = self.func.regions[after].args.clone();
        let mut bvars = Vec::new();
        for (&a, &init) in bargs.iter().zip(data.inits()) {
            let s = format!(
                "{} = {};",
                c_decl(self.vty(a)?, self.n(a), false),
                self.n(init)
            );
            self.line(&s);
            bvars.push(self.n(a).to_string());
        }
        let mut avars = Vec::new();
        for &a in &aargs {
            let s = format!("{};", c_decl(self.vty(a)?, self.n(a), false));
            self.line(&s);
            avars.push(self.n(a).to_string());
        }
        self.line("for (;;) {");
        self.indent += 1;
        let bops = self.func.regions[before].ops.clone();
        for o in bops {
            if self.func.ops[o].kind == OpKind::Condition {
                let cops = self.func.ops[o].operands.clone();
                let Some((&c, vals)) = cops.split_first() else {
                    return Err(self.unverified(data.loc, "`condition` without a predicate"));
                };
                self.put_assign(&avars, vals)?;
                self.line(&format!("if (!{}) break;", self.n(c)));
            } else {
                self.put_op(o)?;
            }
        }
        self.put_region(after, YieldTo::Vars(&bvars))?;
        self.indent -= 1;
        self.line("}");
        for (&r, var) in data.results.iter().zip(&avars) {
            let s = format!("{} = {var};", c_decl(self.vty(r)?, self.n(r), true));
            self.line(&s);
        }
        Ok(())
    }

    fn put_parallel(&mut self, op: Op, level: Level) -> Result<(), CpuifyError> {
        let data = self.func.ops[op].clone();
        if level == Level::Grid {
            return Err(self.err(data.loc, "nested grid-level parallel"));
        }
        let region = data.body();
        let ivs = self.func.regions[region].args.clone();
        if self.sanitize == Sanitize::Racecheck {
            match level {
                // A new phase: what the block does up to its next barrier
                // (distribute cut the thread loops there; the warp pass
                // split each into warps of lanes).
                Level::Block | Level::Warp => self.line("++cucc_rc->epoch;"),
                // A new segment of the warp's phase: the lanes between
                // two warp primitives.
                _ => self.line("++cucc_rc->segment;"),
            }
        }
        let names = ivs.iter().map(|&v| self.n(v).to_string()).collect();
        let ubs = data.ubs().iter().map(|&v| self.n(v).to_string()).collect();
        self.thread_loops.push((level, names, ubs));
        // Outermost dimension first: z, y, x, so x is the innermost loop.
        for k in (0..ivs.len()).rev() {
            if k == 0 && self.independent.contains(&op) {
                self.out.push_str("#pragma GCC ivdep\n");
            }
            let (iv, ub) = (self.n(ivs[k]).to_string(), self.n(data.ubs()[k]));
            if self.int_bits(ivs[k]) == 32 {
                // A signed counter: the bounds are a block's extents (at
                // most 1024), and gcc sees indices computed from a signed
                // counter as affine where an unsigned one might wrap.
                let s = format!("for (int32_t {iv}_c = 0; {iv}_c < (int32_t){ub}; ++{iv}_c) {{");
                self.line(&s);
                self.indent += 1;
                self.line(&format!("const uint32_t {iv} = (uint32_t){iv}_c;"));
            } else {
                let s = format!(
                    "for ({t} {iv} = 0; {iv} < {ub}; ++{iv}) {{",
                    t = self.vty(ivs[k])?,
                );
                self.line(&s);
                self.indent += 1;
            }
        }
        self.put_region(region, YieldTo::Nothing)?;
        self.thread_loops.pop();
        for _ in 0..ivs.len() {
            self.indent -= 1;
            self.line("}");
        }
        Ok(())
    }

    /// Locals the checks of a checked build use, declared at the top of
    /// the entry (after `cucc_dyn`).
    fn checks_prologue(&self, head: &mut String) {
        match self.sanitize {
            Sanitize::Off => {}
            Sanitize::Memcheck => {
                // Private arrays live in this frame, below its address;
                // spills and alignment get a page of slack.
                let _ = writeln!(
                    head,
                    "  cucc_mc_state cucc_mc = {{(uintptr_t)scratch, (uintptr_t)cucc_dyn + cucc_dyn_size, 0, 0}};
                       cucc_mc.fhi = (uintptr_t)__builtin_frame_address(0) + 16;
                       cucc_mc.flo = cucc_mc.fhi - {}u;",
                    self.private_size + 4096 + 16
                );
            }
            Sanitize::Racecheck => head.push_str(
                "  cucc_rc_state *const cucc_rc = __cucc_rc_begin(scratch, (uint64_t)(cucc_dyn - (char *)scratch) + cucc_dyn_size);
",
            ),
        }
    }

    /// The linear thread id in the block of the thread loops around the
    /// op being emitted (`CUCC_RC_NONE` outside them).
    fn thread_expr(&self) -> String {
        let mut warp = None;
        let mut lane = None;
        let mut block = None;
        for (level, ivs, ubs) in &self.thread_loops {
            match level {
                Level::Block => block = Some((ivs, ubs)),
                Level::Warp => warp = ivs.first(),
                Level::Lane => lane = ivs.first(),
                Level::Grid => {}
            }
        }
        match (warp, lane, block) {
            (Some(w), Some(l), _) => format!("((uint32_t){w} * 32u + (uint32_t){l})"),
            (None, Some(l), _) => format!("(uint32_t){l}"),
            (_, _, Some((ivs, ubs))) => {
                let mut e = String::new();
                for k in (0..ivs.len()).rev() {
                    e = if e.is_empty() {
                        format!("(uint32_t){}", ivs[k])
                    } else {
                        format!("((uint32_t){} + (uint32_t){} * {e})", ivs[k], ubs[k])
                    };
                }
                e
            }
            _ => "CUCC_RC_NONE".to_string(),
        }
    }

    /// The value `p` is derived from (through space casts, indexing and
    /// field addressing) and whether that is a private alloca.
    fn pointer_root(&self, p: Value) -> (Value, bool) {
        let mut v = p;
        for _ in 0..64 {
            let ValueDef::Result { op, .. } = self.func.values[v].def else {
                break;
            };
            let od = &self.func.ops[op];
            match &od.kind {
                OpKind::Cast(CastOp::SpaceCast) => v = od.input(),
                OpKind::PtrIndex { .. } | OpKind::PtrField { .. } => v = od.ptr(),
                OpKind::Alloca { space, .. } => return (v, *space == Space::Private),
                _ => break,
            }
        }
        (v, self.ty_of(v).ptr_space() == Some(Space::Private))
    }

    /// Emits the check of a checked build before an access of `size`
    /// bytes (a C expression) through `p`; `flags` are
    /// `checks::SITE_*`. Accesses to private allocas are not checked.
    fn check_access(
        &mut self,
        p: Value,
        size: &str,
        typed_size: u64,
        flags: u32,
        loc: Loc,
    ) -> Result<(), CpuifyError> {
        self.check_access_storing(p, size, typed_size, flags, loc, None)
    }

    /// [`Self::check_access`] for a store of `stored` (its C type in memory
    /// and the C expression), which racecheck compares with the bytes there.
    fn check_access_storing(
        &mut self,
        p: Value,
        size: &str,
        typed_size: u64,
        flags: u32,
        loc: Loc,
        stored: Option<(&str, &str)>,
    ) -> Result<(), CpuifyError> {
        if self.sanitize == Sanitize::Off {
            return Ok(());
        }
        let (root, private) = self.pointer_root(p);
        if private {
            return Ok(());
        }
        let shared = self.points_to_shared(p);
        if self.sanitize == Sanitize::Racecheck
            && (flags & checks::SITE_ATOMIC != 0
                || (!shared && self.ty_of(p).ptr_space() != Some(Space::Generic)))
        {
            return Ok(());
        }
        let flags = flags | if shared { checks::SITE_SHARED } else { 0 };
        let index = self.site_count;
        let site = self.site(root, typed_size, flags, loc);
        let ptr = format!("(uintptr_t){}", self.n(p));
        let thr = self.thread_expr();
        let blk = self.block_expr.clone().unwrap_or_else(|| "0u".to_string());
        let s = match self.sanitize {
            Sanitize::Memcheck => format!(
                "if (__builtin_expect(!cucc_mc_ok(&cucc_mc, cucc_mc_cache[{index}], {ptr}, (uint64_t)({size}), {}), 0)) {{ __cucc_mc_fail(&{site}, {ptr}, (uint64_t)({size}), launch, {blk}, {thr}, cucc_mc.slo, cucc_mc.shi); return; }}",
                i32::from(shared)
            ),
            _ => match stored {
                Some((ty, v)) => format!(
                    "{{ const {ty} cucc_rcv = ({ty}){v}; cucc_rc_access(cucc_rc, {ptr}, (uint64_t)({size}), 1, {thr}, &{site}, launch, {blk}, &cucc_rcv); }}"
                ),
                None => format!(
                    "cucc_rc_access(cucc_rc, {ptr}, (uint64_t)({size}), {}, {thr}, &{site}, launch, {blk}, (const void *)0);",
                    i32::from(flags & checks::SITE_WRITE != 0)
                ),
            },
        };
        self.line(&s);
        Ok(())
    }

    /// Defines an access site for the checks and returns its C name.
    fn site(&mut self, root: Value, size: u64, flags: u32, loc: Loc) -> String {
        let name = format!(
            "cucc_site_{}_{}",
            entry_c_name(&self.func.name),
            self.site_count
        );
        self.site_count += 1;
        let where_ = if loc.is_unknown() {
            String::new()
        } else {
            let file = self
                .module
                .files
                .get(loc.file as usize)
                .map(String::as_str)
                .unwrap_or("?");
            format!("{file}:{}", loc.line)
        };
        let what = self.func.values[root].name.clone().unwrap_or_default();
        let _ = writeln!(
            self.sites,
            "static const cucc_san_site {name} = {{{}, {}, {}, {size}u, {flags}u}};",
            checks::c_string(&self.func.name),
            checks::c_string(&where_),
            checks::c_string(&what),
        );
        name
    }
}

/// The thread loops of `func` whose iterations are independent.
fn independent_loops(module: &Module, func: &Function) -> std::collections::HashSet<Op> {
    let summaries = cucc_ir::CallSummaries::compute(module);
    let fx = cucc_ir::FunctionEffects::new(module, func, &summaries);
    func.walk()
        .into_iter()
        .filter(|&(_, o)| {
            matches!(
                func.ops[o].kind,
                OpKind::Parallel {
                    level: Level::Block | Level::Lane
                }
            )
        })
        .filter(|&(_, o)| crate::passes::serialize_inner::iterations_independent(&fx, func, o))
        .map(|(_, o)| o)
        .collect()
}

/// A C declarator: `const T name`, or `char *const name` for pointers.
fn c_decl(ty: &str, name: &str, constant: bool) -> String {
    match (ty.strip_suffix(" *"), constant) {
        (Some(base), true) => format!("{base} *const {name}"),
        (Some(base), false) => format!("{base} *{name}"),
        (None, true) => format!("const {ty} {name}"),
        (None, false) => format!("{ty} {name}"),
    }
}

/// Escapes a string for a C string literal.
fn c_escape(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        match b {
            b'\\' => out.push_str("\\\\"),
            b'"' => out.push_str("\\\""),
            b'\n' => out.push_str("\\n"),
            b'\t' => out.push_str("\\t"),
            b'\r' => out.push_str("\\r"),
            0x20..=0x7e => out.push(b as char),
            _ => {
                let _ = write!(out, "\\{b:03o}");
            }
        }
    }
    out
}

/// Bytes per element of a texture fetch's result kind (`tex_out_kind`).
fn tex_elem_size(out_kind: u8) -> usize {
    match out_kind {
        0 | 1 => 4,
        2 => 2,
        _ => 1,
    }
}

/// The prelude's code and C type of a texture fetch's result type.
fn tex_out_kind(ty: &Type) -> Option<(u8, &'static str)> {
    Some(match ty {
        Type::Float(FloatKind::F32) => (0, "float"),
        Type::Int(32) => (1, "uint32_t"),
        Type::Int(16) => (2, "uint16_t"),
        Type::Int(8) => (3, "uint8_t"),
        _ => return None,
    })
}
