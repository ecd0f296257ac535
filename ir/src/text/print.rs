//! Writes a module in the text format.
//!
//! The printer never panics, even on IR the verifier would reject: handles
//! out of range print as `<bad ...>` placeholders (which the parser then
//! rejects). For IR whose ops have their documented shape, the output
//! parses back to an equivalent module.

use super::literal::{field_name, format_const, hex_bytes, is_bare, is_numeric, quote, symbol};
use crate::func::{Function, Op, OpData, Region, Value};
use crate::loc::Loc;
use crate::module::{FuncId, GlobalKind, Module};
use crate::ops::{Callee, OpKind, OpSyntax};
use crate::types::{Type, TypeId, Types};
use std::collections::{HashMap, HashSet};

/// Gives every value of one function a unique spelling: its name when it
/// has one (with `.1`, `.2`, ... appended on repeats), a number otherwise.
#[derive(Default)]
struct Namer {
    used: HashSet<String>,
    ids: HashMap<Value, String>,
    next: u64,
}

impl Namer {
    /// The spelling of `v`, assigned on first sight.
    fn get(&mut self, f: &Function, v: Value) -> String {
        if let Some(s) = self.ids.get(&v) {
            return s.clone();
        }
        let name = f.values.try_get(v).and_then(|d| d.name.clone());
        let spelled = match name {
            Some(name) => {
                let mut candidate = name.clone();
                let mut k = 1;
                while self.used.contains(&candidate) {
                    candidate = format!("{name}.{k}");
                    k += 1;
                }
                self.used.insert(candidate.clone());
                if is_bare(&candidate) && !is_numeric(&candidate) {
                    format!("%{candidate}")
                } else {
                    format!("%{}", quote(&candidate))
                }
            }
            None => loop {
                let candidate = self.next.to_string();
                self.next += 1;
                if self.used.insert(candidate.clone()) {
                    break format!("%{candidate}");
                }
            },
        };
        self.ids.insert(v, spelled.clone());
        spelled
    }
}

/// Spells a type reference: `i32`, `f32`, `ptr<global>`, `[4 x f32]`, `$Name`.
pub(crate) fn type_ref(types: &Types, id: TypeId) -> String {
    type_ref_depth(types, id, 0)
}

fn type_ref_depth(types: &Types, id: TypeId, depth: u32) -> String {
    if !types.contains(id) || depth > 64 {
        return format!("<bad type {}>", id.index());
    }
    match &types[id] {
        Type::Int(b) => format!("i{b}"),
        Type::Float(k) => k.name().to_string(),
        Type::Ptr(s) => format!("ptr<{s}>"),
        Type::Array { elem, len } => {
            format!("[{len} x {}]", type_ref_depth(types, *elem, depth + 1))
        }
        Type::Struct(s) => symbol('$', &s.name),
    }
}

fn loc_suffix(loc: Loc) -> String {
    if loc == Loc::default() {
        String::new()
    } else {
        format!(" loc({}:{}:{})", loc.file, loc.line, loc.col)
    }
}

/// Prints whole modules or single functions into a string.
pub(crate) struct Printer<'m> {
    m: &'m Module,
    out: String,
}

impl<'m> Printer<'m> {
    pub(crate) fn new(m: &'m Module) -> Self {
        Printer {
            m,
            out: String::new(),
        }
    }

    pub(crate) fn finish(self) -> String {
        self.out
    }

    fn ty(&self, id: TypeId) -> String {
        type_ref(&self.m.types, id)
    }

    fn types(&self, ids: &[TypeId]) -> String {
        ids.iter()
            .map(|&t| self.ty(t))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The whole module: files, struct types, globals, functions.
    pub(crate) fn module(&mut self) {
        let m = self.m;
        let mut section = false;
        for file in &m.files {
            self.out.push_str(&format!("file {}\n", quote(file)));
            section = true;
        }
        if section {
            self.out.push('\n');
            section = false;
        }
        for (id, ty) in m.types.iter() {
            if let Type::Struct(s) = ty {
                let fields: Vec<String> = s
                    .fields
                    .iter()
                    .map(|f| format!("{}: {} at {}", field_name(&f.name), self.ty(f.ty), f.offset))
                    .collect();
                let body = if fields.is_empty() {
                    "{}".to_string()
                } else {
                    format!("{{ {} }}", fields.join(", "))
                };
                self.out.push_str(&format!(
                    "type {} = struct size {} align {} {body}\n",
                    self.ty(id),
                    s.size,
                    s.align
                ));
                section = true;
            }
        }
        if section {
            self.out.push('\n');
            section = false;
        }
        for (_, g) in m.globals.iter() {
            let (keyword, dims) = match g.kind {
                GlobalKind::Variable => ("global", String::new()),
                GlobalKind::Texture { dims } => ("texture", format!(" dims {dims}")),
            };
            let init = match &g.init {
                Some(bytes) => format!(" = bytes \"{}\"", hex_bytes(bytes)),
                None => String::new(),
            };
            let managed = if g.managed { " managed" } else { "" };
            let linkage = g
                .linkage
                .keyword()
                .map_or(String::new(), |k| format!(" {k}"));
            self.out.push_str(&format!(
                "{keyword} {} : {} {}{dims}{managed}{linkage}{init}{}\n",
                symbol('@', &g.name),
                self.ty(g.ty),
                g.space,
                loc_suffix(g.loc)
            ));
            section = true;
        }
        if section {
            self.out.push('\n');
        }
        let mut first = true;
        for id in m.functions.handles() {
            if !first {
                self.out.push('\n');
            }
            first = false;
            self.function(id);
        }
    }

    /// One function, header and body.
    pub(crate) fn function(&mut self, id: FuncId) {
        let Some(f) = self.m.functions.try_get(id) else {
            self.out
                .push_str(&format!("; <bad function {}>\n", id.index()));
            return;
        };
        let mut names = Namer::default();
        let params: Vec<Value> = f
            .regions
            .try_get(f.body)
            .map(|r| r.args.clone())
            .unwrap_or_default();
        let mut ps = Vec::new();
        for (i, &v) in params.iter().enumerate() {
            let mut s = format!("{}: {}", names.get(f, v), self.value_ty(f, v));
            if let Some(attrs) = f.params.get(i) {
                if attrs.noalias {
                    s.push_str(" noalias");
                }
                if let Some(t) = attrs.byval {
                    s.push_str(&format!(" byval({})", self.ty(t)));
                }
            }
            ps.push(s);
        }
        let results = if f.results.is_empty() {
            String::new()
        } else {
            format!(" -> ({})", self.types(&f.results))
        };
        let linkage = f
            .linkage
            .keyword()
            .map_or(String::new(), |k| format!("{k} "));
        self.out.push_str(&format!(
            "{linkage}{} {}({}){results}{}",
            f.kind.name(),
            symbol('@', &f.name),
            ps.join(", "),
            loc_suffix(f.loc)
        ));
        if f.linkage == crate::module::Linkage::Import {
            self.out.push('\n');
            return;
        }
        self.out.push_str(" {\n");
        let mut active = HashSet::new();
        self.region_ops(f, &mut names, f.body, 1, &mut active);
        self.out.push_str("}\n");
    }

    fn value_ty(&self, f: &Function, v: Value) -> String {
        match f.values.try_get(v) {
            Some(d) => self.ty(d.ty),
            None => format!("<bad value {}>", v.index()),
        }
    }

    fn vals(&self, f: &Function, names: &mut Namer, vs: &[Value]) -> String {
        vs.iter()
            .map(|&v| names.get(f, v))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// ` : T` when `v`'s type differs from `like`'s (or `like` is missing).
    fn arg_ty_note(&self, f: &Function, v: Value, like: Option<Value>) -> String {
        let ty = f.values.try_get(v).map(|d| d.ty);
        let like_ty = like.and_then(|l| f.values.try_get(l)).map(|d| d.ty);
        if ty.is_some() && ty == like_ty {
            String::new()
        } else {
            format!(": {}", self.value_ty(f, v))
        }
    }

    fn indent(&mut self, depth: usize) {
        for _ in 0..depth {
            self.out.push_str("  ");
        }
    }

    fn region_ops(
        &mut self,
        f: &Function,
        names: &mut Namer,
        region: Region,
        depth: usize,
        active: &mut HashSet<Region>,
    ) {
        let Some(r) = f.regions.try_get(region) else {
            self.indent(depth);
            self.out
                .push_str(&format!("; <bad region {}>\n", region.index()));
            return;
        };
        if !active.insert(region) {
            self.indent(depth);
            self.out.push_str("; <region nested in itself>\n");
            return;
        }
        for &op in &r.ops {
            self.op(f, names, op, depth, active);
        }
        active.remove(&region);
    }

    /// ` {\n ops }` for one region, the closing brace indented at `depth`.
    fn region_block(
        &mut self,
        f: &Function,
        names: &mut Namer,
        region: Option<Region>,
        depth: usize,
        active: &mut HashSet<Region>,
    ) {
        self.out.push_str("{\n");
        if let Some(r) = region {
            self.region_ops(f, names, r, depth + 1, active);
        }
        self.indent(depth);
        self.out.push('}');
    }

    fn region_args(f: &Function, region: Option<Region>) -> Vec<Value> {
        region
            .and_then(|r| f.regions.try_get(r))
            .map(|r| r.args.clone())
            .unwrap_or_default()
    }

    fn op(
        &mut self,
        f: &Function,
        names: &mut Namer,
        op: Op,
        depth: usize,
        active: &mut HashSet<Region>,
    ) {
        self.indent(depth);
        let Some(data) = f.ops.try_get(op) else {
            self.out.push_str(&format!("; <bad op {}>\n", op.index()));
            return;
        };
        if !data.results.is_empty() {
            let rs = self.vals(f, names, &data.results);
            self.out.push_str(&format!("{rs} = "));
        }
        let result_types: Vec<TypeId> = data
            .results
            .iter()
            .filter_map(|&v| f.values.try_get(v).map(|d| d.ty))
            .collect();
        let arrow = if result_types.is_empty() {
            String::new()
        } else {
            format!(" -> ({})", self.types(&result_types))
        };
        let mut line = data.kind.mnemonic().to_string();
        let syntax = data.kind.code().syntax();
        let middle = match syntax {
            OpSyntax::Structured => {
                self.structured(f, names, data, &arrow, depth, active);
                self.end_op(data.loc);
                return;
            }
            OpSyntax::Plain => Vec::new(),
            OpSyntax::Attrs => self.attrs(&data.kind),
            OpSyntax::Custom => vec![self.custom(f, names, data, &result_types)],
        };
        for word in middle {
            line.push(' ');
            line.push_str(&word);
        }
        let ops = &data.operands;
        if syntax != OpSyntax::Custom && !ops.is_empty() {
            line.push(' ');
            line.push_str(&self.vals(f, names, ops));
        }
        if !result_types.is_empty() {
            line.push_str(" : ");
            line.push_str(&self.types(&result_types));
        }
        self.out.push_str(&line);
        self.end_op(data.loc);
    }

    /// The attributes of an op of [`OpSyntax::Attrs`], as words between the
    /// mnemonic and the operands.
    fn attrs(&self, kind: &OpKind) -> Vec<String> {
        let mut out = Vec::new();
        let mut attr = |s: String| out.push(s);
        match kind {
            OpKind::Cmp(p) => attr(p.name().into()),
            OpKind::Binary(_, flags) if flags.nsw => attr("nsw".into()),
            OpKind::Alloca { space, ty } => attr(format!("{space} {}", self.ty(*ty))),
            OpKind::Load {
                volatile,
                speculative,
            } => {
                if *volatile {
                    attr("volatile".into())
                }
                if *speculative {
                    attr("speculative".into())
                }
            }
            OpKind::Store { volatile } if *volatile => attr("volatile".into()),
            OpKind::PtrIndex { elem } => attr(self.ty(*elem)),
            OpKind::PtrField { ty, field } => attr(format!("{}[{field}]", self.ty(*ty))),
            OpKind::GlobalAddr(g) | OpKind::TexRef(g) => attr(match self.m.globals.try_get(*g) {
                Some(gl) => symbol('@', &gl.name),
                None => format!("@\"<bad global {}>\"", g.index()),
            }),
            OpKind::AtomicRmw { op, scope } => attr(format!("{op} {}", scope.name())),
            OpKind::AtomicCas { scope } | OpKind::Fence { scope } => attr(scope.name().into()),
            OpKind::ThreadId(d) | OpKind::BlockId(d) | OpKind::BlockDim(d) | OpKind::GridDim(d) => {
                attr(d.name().into())
            }
            OpKind::Barrier(s) => attr(s.name().into()),
            OpKind::BarrierReduce(k) => attr(k.name().into()),
            OpKind::Shuffle(m) => attr(m.name().into()),
            OpKind::Vote(k) => attr(k.name().into()),
            OpKind::TexFetch(k) => attr(k.name().into()),
            OpKind::Trap { message, assert } => {
                if *assert {
                    attr("assert".into());
                }
                attr(quote(message))
            }
            // Attributes at their defaults print nothing, and other ops have
            // none (the round-trip test covers every op of the table).
            _ => {}
        }
        out
    }

    /// What an op of [`OpSyntax::Custom`] writes between its mnemonic and
    /// its result types.
    fn custom(
        &self,
        f: &Function,
        names: &mut Namer,
        data: &OpData,
        result_types: &[TypeId],
    ) -> String {
        let ops = &data.operands;
        match &data.kind {
            OpKind::Const { bits } => {
                format_const(&self.m.types, result_types.first().copied(), *bits)
            }
            OpKind::Call(callee) => {
                let target = match callee {
                    Callee::Func(id) => match self.m.functions.try_get(*id) {
                        Some(g) => symbol('@', &g.name),
                        None => format!("@\"<bad function {}>\"", id.index()),
                    },
                    Callee::Extern(name) => format!("extern {}", symbol('@', name)),
                };
                let args = self.vals(f, names, ops);
                format!("{target}({args})")
            }
            OpKind::Printf { format } => {
                let mut s = quote(format);
                if !ops.is_empty() {
                    s.push_str(", ");
                    s.push_str(&self.vals(f, names, ops));
                }
                s
            }
            other => format!("<no printer for {}>", other.mnemonic()),
        }
    }

    /// An op of [`OpSyntax::Structured`]: its header, then its regions.
    fn structured(
        &mut self,
        f: &Function,
        names: &mut Namer,
        data: &OpData,
        arrow: &str,
        depth: usize,
        active: &mut HashSet<Region>,
    ) {
        let ops = &data.operands;
        match &data.kind {
            OpKind::If => {
                let cond = self.vals(f, names, ops);
                self.out.push_str(&format!("if {cond}{arrow} "));
                let r = data.regions.first().copied();
                self.region_block(f, names, r, depth, active);
                if let Some(&e) = data.regions.get(1) {
                    self.out.push_str(" else ");
                    self.region_block(f, names, Some(e), depth, active);
                }
            }
            OpKind::For { unsigned } => {
                let r = data.regions.first().copied();
                let args = Self::region_args(f, r);
                let mut head = String::from("for ");
                if *unsigned {
                    head.push_str("unsigned ");
                }
                let iv = args.first().copied();
                let name = |names: &mut Namer, v: Option<Value>| match v {
                    Some(v) => names.get(f, v),
                    None => "<missing>".to_string(),
                };
                let get = |i: usize| ops.get(i).copied();
                head.push_str(&name(names, iv));
                if let Some(iv) = iv {
                    head.push_str(&self.arg_ty_note(f, iv, get(0)));
                }
                head.push_str(&format!(
                    " = {} to {} step {}",
                    name(names, get(0)),
                    name(names, get(1)),
                    name(names, get(2))
                ));
                let carried = args
                    .len()
                    .saturating_sub(1)
                    .max(ops.len().saturating_sub(3));
                if carried > 0 {
                    let mut items = Vec::new();
                    for k in 0..carried {
                        let arg = args.get(k + 1).copied();
                        let mut s = name(names, arg);
                        if let Some(a) = arg {
                            s.push_str(&self.arg_ty_note(f, a, get(k + 3)));
                        }
                        s.push_str(&format!(" = {}", name(names, get(k + 3))));
                        items.push(s);
                    }
                    head.push_str(&format!(" iter({})", items.join(", ")));
                }
                self.out.push_str(&format!("{head}{arrow} "));
                self.region_block(f, names, r, depth, active);
            }
            OpKind::While => {
                let before = data.regions.first().copied();
                let after = data.regions.get(1).copied();
                let bargs = Self::region_args(f, before);
                let mut items = Vec::new();
                for (k, &a) in bargs.iter().enumerate() {
                    let init = match ops.get(k) {
                        Some(&v) => names.get(f, v),
                        None => "<missing>".to_string(),
                    };
                    items.push(format!(
                        "{}{} = {init}",
                        names.get(f, a),
                        self.arg_ty_note(f, a, ops.get(k).copied())
                    ));
                }
                self.out
                    .push_str(&format!("while ({}){arrow} ", items.join(", ")));
                self.region_block(f, names, before, depth, active);
                let aargs: Vec<String> = Self::region_args(f, after)
                    .into_iter()
                    .map(|a| format!("{}: {}", names.get(f, a), self.value_ty(f, a)))
                    .collect();
                self.out.push_str(&format!(" do ({}) ", aargs.join(", ")));
                self.region_block(f, names, after, depth, active);
            }
            OpKind::Parallel { level } => {
                let r = data.regions.first().copied();
                let ivs: Vec<String> = Self::region_args(f, r)
                    .into_iter()
                    .enumerate()
                    .map(|(k, a)| {
                        format!(
                            "{}{}",
                            names.get(f, a),
                            self.arg_ty_note(f, a, ops.get(k).copied())
                        )
                    })
                    .collect();
                let ubs = self.vals(f, names, ops);
                self.out.push_str(&format!(
                    "parallel<{}> ({}) in ({ubs}){arrow} ",
                    level.name(),
                    ivs.join(", ")
                ));
                self.region_block(f, names, r, depth, active);
            }
            other => {
                let m = other.mnemonic();
                self.out.push_str(&format!("{m} <no printer for this op>"));
            }
        }
    }

    fn end_op(&mut self, loc: Loc) {
        self.out.push_str(&loc_suffix(loc));
        self.out.push('\n');
    }
}
