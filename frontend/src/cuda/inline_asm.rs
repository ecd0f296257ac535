//! Inline PTX (`asm("..." : outputs : inputs : clobbers)`) in device code.
//!
//! The PTX is not re-implemented here: each statement becomes a small PTX
//! `.func` that the PTX frontend (`cucc_ptx`) parses and lowers, so inline
//! PTX means exactly what PTX in an nvcc-built program means. The function
//! takes one `.param` per register operand (a pointer to a private slot of
//! the caller, the PTX frontend's `.func` convention): it loads the inputs
//! into registers of the constraint's type, runs the template with `%N`
//! replaced by those registers, and stores the outputs back. The caller
//! stores the C values into the slots, calls it, and writes the slots to
//! the output lvalues. The function is declared here as an import and its
//! body copied in from the PTX frontend's module after lowering
//! ([`link`]); cpuify inlines it like any device function.
//!
//! `memory` clobbers (and `volatile` statements that access memory) are
//! bracketed by `fence` ops: the IR's passes move no access across a fence.

use std::collections::HashMap;
use std::fmt::Write as _;

use cucc_ir::{CastOp, FloatKind, Linkage, MemScope, Module, OpKind, Space, TypeId, Value};
use cucc_ptx::ast::{StateSpace, Stmt};
use cucc_ptx::inst::Opcode;

use super::asm_syntax::{self, Constraint, RegClass};
use super::ctype::CType;
use super::diag::{DiagLoc, Diagnostic};
use super::func::FnCx;
use super::ModCx;
use crate::ast::Node;

type R<T> = Result<T, Diagnostic>;

/// Prefix of the generated functions' names.
const PREFIX: &str = "__cucc_asm_";

/// An operand bound to a register slot.
struct Slot<'a> {
    class: RegClass,
    /// The caller's private storage.
    ptr: Value,
    /// Output: the lvalue's address, C type and expression.
    out: Option<(Value, CType, &'a Node)>,
    /// Read by the asm (input or `+`).
    read: bool,
}

impl ModCx<'_> {
    /// The source text of the `asm` statement `s` (from its keyword to its
    /// closing parenthesis), read from the file its tokens are spelled in.
    fn asm_text(&mut self, s: &Node) -> Result<String, String> {
        let unreadable = || "cannot read the source text of this asm statement".to_string();
        let r = s.range.as_ref().ok_or_else(unreadable)?;
        let (Some(b), Some(e)) = (&r.begin, &r.end) else {
            return Err(unreadable());
        };
        let b = b.spelling.as_ref().unwrap_or(&b.expansion);
        let e = e.spelling.as_ref().unwrap_or(&e.expansion);
        if b.file != e.file || e.offset < b.offset {
            return Err(format!(
                "{} (its text is split across macro expansions)",
                unreadable()
            ));
        }
        let file = b.file.to_string();
        if !self.source_texts.contains_key(&file) {
            let path = match &self.source_dir {
                Some(d) if std::path::Path::new(&file).is_relative() => d.join(&file),
                _ => std::path::PathBuf::from(&file),
            };
            let text = std::fs::read(&path).ok();
            self.source_texts.insert(file.clone(), text);
        }
        let Some(Some(text)) = self.source_texts.get(&file) else {
            return Err(format!("{}: cannot read `{file}`", unreadable()));
        };
        let start = b.offset as usize;
        let end = (e.offset as usize).saturating_add(e.tok_len as usize);
        let bytes = text.get(start..end).ok_or_else(unreadable)?;
        Ok(String::from_utf8_lossy(bytes).into_owned())
    }
}

/// The value of an `n` operand: an integer constant, possibly a template
/// argument.
fn immediate(e: &Node) -> Option<i64> {
    super::records::const_int_of(e).or_else(|| match &e.kind {
        crate::ast::Kind::SubstNonTypeTemplateParmExpr => e.inner.last().and_then(immediate),
        crate::ast::Kind::ImplicitCastExpr | crate::ast::Kind::ParenExpr => {
            e.inner.first().and_then(immediate)
        }
        _ => None,
    })
}

/// True for the instructions that read or write memory.
fn accesses_memory(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::Ld | Opcode::Ldu | Opcode::St | Opcode::Atom | Opcode::Red
    )
}

/// Refuses what the generated function cannot give a meaning: the operands
/// are C values, so there are no shared-window offsets, `.local` frames or
/// `.param` slots of the user's, and leaving the function early would skip
/// the outputs.
fn check_inst(i: &cucc_ptx::inst::Inst) -> Result<(), String> {
    let named = |why: &str| format!("`{}` in inline PTX: {why}", i.name);
    match i.op {
        Opcode::Ret | Opcode::Exit => Err(named("leaving the asm early is not supported")),
        Opcode::Call => Err(named("calls are not supported")),
        Opcode::Tex => Err(named("texture instructions are not supported")),
        Opcode::Ld
        | Opcode::Ldu
        | Opcode::St
        | Opcode::Atom
        | Opcode::Red
        | Opcode::Cvta
        | Opcode::Prefetch
        | Opcode::Prefetchu => match i.mods.space {
            Some(StateSpace::Shared) => Err(named(
                "the `.shared` state space is not supported (use a generic address)",
            )),
            Some(StateSpace::Local) => Err(named(
                "the `.local` state space is not supported (use a generic address)",
            )),
            Some(StateSpace::Param) => Err(named("the `.param` state space is not supported")),
            _ => Ok(()),
        },
        _ => Ok(()),
    }
}

impl<'m, 'a> FnCx<'m, 'a> {
    /// Lowers the `GCCAsmStmt` `s`.
    pub fn asm_stmt(&mut self, s: &'a Node) -> R<()> {
        self.at(s);
        let text = self.mc.asm_text(s).map_err(|m| Diagnostic::at(s, m))?;
        let asm = asm_syntax::parse(&text).map_err(|m| Diagnostic::at(s, m))?;
        let nout = asm.outputs.len();
        if s.inner.len() != nout + asm.inputs.len() {
            return self.err(
                s,
                format!(
                    "cannot match this asm statement's text ({} operands) with its {} operand expressions",
                    nout + asm.inputs.len(),
                    s.inner.len()
                ),
            );
        }
        let uid = self.mc.asm_units.len() as u32;
        let fname = format!("{PREFIX}{uid}");
        // Operand texts by number, and the register slots.
        let mut texts: Vec<String> = Vec::new();
        let mut names: Vec<Option<String>> = Vec::new();
        let mut slots: Vec<Slot> = Vec::new();
        // Operand number -> slot index.
        let mut slot_of: HashMap<usize, usize> = HashMap::new();
        let operands = asm.outputs.iter().chain(&asm.inputs).enumerate();
        for (k, op) in operands {
            let expr = &s.inner[k];
            let output = k < nout;
            names.push(op.name.clone());
            let c = asm_syntax::constraint(&op.constraint, output)
                .map_err(|m| Diagnostic::at(expr, m))?;
            match c {
                Constraint::Imm => {
                    let Some(v) = immediate(expr) else {
                        return self.err(
                            expr,
                            "an \"n\" operand must be an integer constant expression",
                        );
                    };
                    texts.push(v.to_string());
                }
                Constraint::Tied(t) => {
                    let Some(&si) = slot_of.get(&t).filter(|_| t < nout) else {
                        return self.err(
                            expr,
                            format!("matching constraint \"{t}\" names no register output"),
                        );
                    };
                    let class = slots[si].class;
                    let v = self.asm_input(expr, class)?;
                    let p = slots[si].ptr;
                    self.b().store(p, v);
                    slots[si].read = true;
                    texts.push(format!("%cuccop{si}"));
                    slot_of.insert(k, si);
                }
                Constraint::Reg { class, write, read } => {
                    let ty = self.asm_reg_ty(class);
                    let ptr = self.entry_alloca(ty);
                    let out = if write {
                        let ct = self.ty_of(expr)?;
                        let addr = self.lvalue(expr)?;
                        if read {
                            let v = self.load(addr, &ct, expr)?;
                            let v = self.asm_to_reg(v, &ct, class, expr)?;
                            self.b().store(ptr, v);
                        }
                        Some((addr, ct, expr))
                    } else {
                        let v = self.asm_input(expr, class)?;
                        self.b().store(ptr, v);
                        None
                    };
                    let si = slots.len();
                    slots.push(Slot {
                        class,
                        ptr,
                        out,
                        read,
                    });
                    slot_of.insert(k, si);
                    texts.push(format!("%cuccop{si}"));
                }
            }
        }
        let body = if asm.basic {
            asm.template.clone()
        } else {
            asm_syntax::substitute(&asm.template, &texts, &names, uid)
                .map_err(|m| Diagnostic::at(s, m))?
        };
        if let Some(r) = asm_syntax::shadowed_register(&body) {
            return self.err(
                s,
                format!("inline PTX: register `{r}` is declared again in an inner `{{ }}` block; shadowing is not supported (rename it)"),
            );
        }
        let loc = DiagLoc::of(s);
        let (ptx, user_lines) = asm_function(&fname, &slots, &body, &loc);
        // Check and lower the PTX now, so errors point at this statement.
        let fail = |m: String| Diagnostic::at(s, m);
        let parsed =
            cucc_ptx::parse::parse(&ptx).map_err(|e| fail(format!("inline PTX: {}", e.message)))?;
        let mut touches_memory = false;
        for f in &parsed.functions {
            for st in f.body.iter().flatten() {
                if let Stmt::Inst(i) = st {
                    if !user_lines.contains(&i.pos.line) {
                        continue;
                    }
                    check_inst(i).map_err(fail)?;
                    touches_memory |= accesses_memory(i.op);
                }
            }
        }
        let unit = cucc_ptx::lower::lower_module(&parsed, "inline PTX")
            .map_err(|e| fail(format!("inline PTX: {}", e.message)))?;
        self.mc.asm_units.push(unit);
        // The call, between fences where memory order matters.
        let fence = asm.clobbers_memory() || (asm.volatile && touches_memory);
        let pt = self.mc.module.types.ptr(Space::Private);
        let params = vec![pt; slots.len()];
        let mut decl = cucc_ir::Function::new(&fname, cucc_ir::FunctionKind::Device, &params, &[]);
        decl.linkage = Linkage::Import;
        decl.loc = self.loc;
        let id = self.mc.module.add_function(decl);
        self.at(s);
        if fence {
            self.asm_fence();
        }
        let args: Vec<Value> = slots.iter().map(|sl| sl.ptr).collect();
        self.b().call(id, args, &[]);
        if fence {
            self.asm_fence();
        }
        for sl in &slots {
            let Some((addr, ct, expr)) = &sl.out else {
                continue;
            };
            let ty = self.asm_reg_ty(sl.class);
            let v = self.b().load(sl.ptr, ty);
            let v = self.asm_from_reg(v, sl.class, ct, expr)?;
            self.store(*addr, v, ct);
        }
        Ok(())
    }

    fn asm_fence(&mut self) {
        self.b().op(
            OpKind::Fence {
                scope: MemScope::Block,
            },
            vec![],
            &[],
            vec![],
        );
    }

    fn asm_reg_ty(&mut self, class: RegClass) -> TypeId {
        let t = &mut self.mc.module.types;
        match class {
            RegClass::F32 => t.f32(),
            RegClass::F64 => t.f64(),
            c => t.int(c.bits()),
        }
    }

    /// The value of input expression `e` as a register of `class`.
    fn asm_input(&mut self, e: &'a Node, class: RegClass) -> R<Value> {
        let ct = self.ty_of(e)?;
        let v = self.scalar(e)?;
        self.asm_to_reg(v, &ct, class, e)
    }

    /// C value `v` of type `ct` as a register of `class`: integers convert
    /// as C converts them to an integer of the register's width, floats of
    /// the register's width (and `__half` in `h`) keep their bits.
    fn asm_to_reg(&mut self, v: Value, ct: &CType, class: RegClass, at: &Node) -> R<Value> {
        let ct = self.mc.resolve(ct.strip());
        let ty = self.asm_reg_ty(class);
        let vt = self.func.value_type(v);
        let vbits = self.mc.module.types.size_of(vt) * 8;
        match &ct {
            CType::Int { signed, .. } if !class.is_float() => {
                let to = CType::int(class.bits(), *signed);
                self.convert(v, &ct, &to, at)
            }
            CType::Bool if !class.is_float() => {
                let to = CType::int(class.bits(), false);
                self.convert(v, &ct, &to, at)
            }
            CType::Float(_) if class.is_float() => {
                let to = CType::Float(if class == RegClass::F32 {
                    FloatKind::F32
                } else {
                    FloatKind::F64
                });
                self.convert(v, &ct, &to, at)
            }
            CType::Float(_) if vbits == u64::from(class.bits()) => {
                Ok(self.b().cast(CastOp::Bitcast, v, ty))
            }
            CType::Ptr(_) | CType::Ref(_) if class == RegClass::B64 => {
                let g = self.to_generic(v);
                Ok(self.b().cast(CastOp::PtrToInt, g, ty))
            }
            _ => self.err(
                at,
                format!(
                    "an operand of type `{}` does not fit a {}-bit {} register",
                    ctype_name(&ct),
                    class.bits(),
                    if class.is_float() { "float" } else { "integer" }
                ),
            ),
        }
    }

    /// Register value `v` of `class` as C type `ct` (the inverse of
    /// [`Self::asm_to_reg`]).
    fn asm_from_reg(&mut self, v: Value, class: RegClass, ct: &CType, at: &Node) -> R<Value> {
        let rt = self.mc.resolve(ct.strip());
        let Some(ty) = self.mc.scalar_ty(&rt) else {
            return self.err(at, "an asm output must be a scalar lvalue");
        };
        let tbits = self.mc.module.types.size_of(ty) * 8;
        match &rt {
            CType::Int { .. } | CType::Bool if !class.is_float() => {
                let from = CType::int(class.bits(), rt.is_signed());
                self.convert(v, &from, &rt, at)
            }
            CType::Float(_) if class.is_float() => {
                let from = CType::Float(if class == RegClass::F32 {
                    FloatKind::F32
                } else {
                    FloatKind::F64
                });
                self.convert(v, &from, &rt, at)
            }
            CType::Float(_) if tbits == u64::from(class.bits()) => {
                Ok(self.b().cast(CastOp::Bitcast, v, ty))
            }
            CType::Ptr(_) if class == RegClass::B64 => Ok(self.b().cast(CastOp::IntToPtr, v, ty)),
            _ => self.err(
                at,
                format!(
                    "an output of type `{}` does not fit a {}-bit {} register",
                    ctype_name(&rt),
                    class.bits(),
                    if class.is_float() { "float" } else { "integer" }
                ),
            ),
        }
    }
}

fn ctype_name(t: &CType) -> String {
    format!("{t:?}")
}

/// The PTX text of the function for one asm statement: a parameter per
/// slot, a register per slot, inputs loaded, the body, outputs stored.
/// `.loc` gives the body's ops the statement's source line. Also the PTX
/// lines the body occupies.
fn asm_function(
    name: &str,
    slots: &[Slot<'_>],
    body: &str,
    loc: &DiagLoc,
) -> (String, std::ops::RangeInclusive<u32>) {
    let mut t = String::new();
    let _ = writeln!(t, ".version 7.0\n.target sm_80\n.address_size 64");
    let file = loc.file.replace('\\', "\\\\").replace('"', "\\\"");
    let _ = writeln!(t, ".file 1 \"{file}\"");
    let params: Vec<String> = (0..slots.len())
        .map(|k| format!(".param {} __cucc_p{k}", slots[k].class.ptx_type()))
        .collect();
    let _ = writeln!(t, ".visible .func {name}({})\n{{", params.join(", "));
    let _ = writeln!(t, ".loc 1 {} {}", loc.line.max(1), loc.col.max(1));
    for (k, sl) in slots.iter().enumerate() {
        let _ = writeln!(t, ".reg {} %cuccop{k};", sl.class.ptx_type());
    }
    for (k, sl) in slots.iter().enumerate() {
        if sl.read {
            let ty = sl.class.ptx_type();
            let _ = writeln!(t, "ld.param{ty} %cuccop{k}, [__cucc_p{k}];");
        }
    }
    let first = t.lines().count() as u32 + 2;
    let _ = writeln!(t, "{{\n{body}\n}}");
    let last = t.lines().count() as u32 - 1;
    for (k, sl) in slots.iter().enumerate() {
        if sl.out.is_some() {
            let ty = sl.class.ptx_type();
            let _ = writeln!(t, "st.param{ty} [__cucc_p{k}], %cuccop{k};");
        }
    }
    t.push_str("}\n");
    (t, first..=last)
}

/// Gives every inline-PTX function declared in `module` its body from the
/// PTX frontend's `units`. Other imports of `module` (functions of other
/// translation units under separate compilation) are left as they are.
pub fn link(module: &mut Module, mut units: Vec<Module>) -> Result<(), String> {
    if units.is_empty() {
        return Ok(());
    }
    // The linker copies external definitions only.
    for unit in &mut units {
        let ids: Vec<_> = unit.functions.handles().collect();
        for f in ids {
            unit.functions[f].linkage = Linkage::External;
        }
    }
    // The linker resolves every import: hide the others while it runs.
    let others: Vec<_> = module
        .functions
        .iter()
        .filter(|(_, f)| f.linkage == Linkage::Import && !f.name.starts_with(PREFIX))
        .map(|(id, _)| id)
        .collect();
    for &id in &others {
        module.functions[id].linkage = Linkage::External;
    }
    let list: Vec<cucc_ir::link::Unit<'_>> = units
        .iter()
        .map(|m| cucc_ir::link::Unit {
            name: "inline PTX",
            module: m,
        })
        .collect();
    let r = cucc_ir::link::resolve_imports(module, "this unit", &list);
    for &id in &others {
        module.functions[id].linkage = Linkage::Import;
    }
    r.map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use cucc_ir::{Function, FunctionKind};

    fn first_inst(ptx_body: &str) -> cucc_ptx::inst::Inst {
        let text = format!(
            ".version 7.0\n.target sm_80\n.address_size 64\n.visible .func f()\n{{\n.reg .b32 %r;\n.reg .b64 %rd;\n{ptx_body}\n}}\n"
        );
        let m = cucc_ptx::parse::parse(&text).expect("parses");
        let body = m.functions[0].body.as_ref().expect("body");
        body.iter()
            .find_map(Stmt::inst)
            .cloned()
            .expect("an instruction")
    }

    #[test]
    fn refuses_state_spaces_the_operands_cannot_name() {
        for (ptx, ok) in [
            ("ld.global.nc.u32 %r, [%rd];", true),
            ("st.global.cs.u32 [%rd], %r;", true),
            ("ld.u32 %r, [%rd];", true),
            ("ld.shared.u32 %r, [%rd];", false),
            ("st.local.u32 [%rd], %r;", false),
            ("cvta.to.shared.u64 %rd, %rd;", false),
            ("ret;", false),
            ("exit;", false),
        ] {
            let i = first_inst(ptx);
            assert_eq!(check_inst(&i).is_ok(), ok, "{ptx}: {:?}", check_inst(&i));
        }
        assert!(accesses_memory(first_inst("ld.global.u32 %r, [%rd];").op));
        assert!(!accesses_memory(first_inst("add.u32 %r, %r, 1;").op));
    }

    #[test]
    fn link_fills_only_inline_ptx_imports() {
        let mut m = Module::new();
        let mut other = Function::new("other_unit_fn", FunctionKind::Device, &[], &[]);
        other.linkage = Linkage::Import;
        let other = m.add_function(other);
        let mut asm = Function::new("__cucc_asm_0", FunctionKind::Device, &[], &[]);
        asm.linkage = Linkage::Import;
        let asm = m.add_function(asm);
        let unit = cucc_ptx::lower_ptx(
            ".version 7.0\n.target sm_80\n.address_size 64\n.visible .func __cucc_asm_0()\n{\nmembar.gl;\n}\n",
            "inline PTX",
        )
        .expect("lowers");
        link(&mut m, vec![unit]).expect("links");
        assert_eq!(m.functions[other].linkage, Linkage::Import);
        assert_eq!(m.functions[asm].linkage, Linkage::Internal);
        let body = m.functions[asm].body;
        let has_fence = m.functions[asm].regions[body]
            .ops
            .iter()
            .any(|&o| matches!(m.functions[asm].ops[o].kind, OpKind::Fence { .. }));
        assert!(has_fence);
    }

    #[test]
    fn generated_function_loads_reads_and_stores_writes() {
        let t = asm_syntax::parse("asm(\"add.u32 %0, %0, %1;\" : \"+r\"(x) : \"l\"(p))").unwrap();
        assert_eq!(t.outputs.len() + t.inputs.len(), 2);
        let v = Value::new;
        let slots = [
            Slot {
                class: RegClass::B32,
                ptr: v(0),
                out: None,
                read: true,
            },
            Slot {
                class: RegClass::B64,
                ptr: v(1),
                out: None,
                read: false,
            },
        ];
        let loc = DiagLoc {
            file: "a.cu".into(),
            line: 7,
            col: 3,
        };
        let (text, lines) = asm_function("__cucc_asm_3", &slots, "mov.u32 %cuccop0, 1;", &loc);
        assert!(text
            .contains(".visible .func __cucc_asm_3(.param .b32 __cucc_p0, .param .b64 __cucc_p1)"));
        assert!(text.contains("ld.param.b32 %cuccop0, [__cucc_p0];"));
        assert!(!text.contains("[__cucc_p1]"));
        assert!(text.contains(".loc 1 7 3"));
        let body_line = text
            .lines()
            .position(|l| l == "mov.u32 %cuccop0, 1;")
            .unwrap() as u32
            + 1;
        assert!(lines.contains(&body_line));
        assert!(!lines.contains(&(body_line - 2)));
        assert!(cucc_ptx::parse::parse(&text).is_ok());
    }
}
