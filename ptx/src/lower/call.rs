//! Calls: `.func`s of the module, `vprintf` and `__assertfail`, and
//! indirect calls through pointers to `.func`s.
//!
//! The IR has no indirect call. As on the source path (docs/frontend.md),
//! every function whose address the module takes (`mov.u64 %rd, f;`, a
//! variable initialised with `{f, g}`) gets a number from 1, which is its
//! pointer's value, and a call through a register is a chain of direct
//! calls of the numbered functions that fit the call's `.callprototype`,
//! chosen by the number; any other value traps.

use std::collections::HashSet;

use super::*;

/// The size class of one `printf` argument as `vprintf` packs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PrintfArg {
    /// `int`-sized (`%d`, `%c`, `%x`, ...).
    I32,
    /// `long`/`long long`-sized.
    I64,
    /// `double` (floats are promoted).
    F64,
    /// A pointer (`%s`, `%p`).
    Ptr,
}

/// The arguments a printf format string consumes, in order.
pub(crate) fn printf_args(fmt: &str) -> std::result::Result<Vec<PrintfArg>, String> {
    let b = fmt.as_bytes();
    let mut out = Vec::new();
    let mut k = 0;
    while k < b.len() {
        if b[k] != b'%' {
            k += 1;
            continue;
        }
        k += 1;
        if b.get(k) == Some(&b'%') {
            k += 1;
            continue;
        }
        while k < b.len() && b"-+ #0".contains(&b[k]) {
            k += 1;
        }
        let star = |k: &mut usize, out: &mut Vec<PrintfArg>| {
            if b.get(*k) == Some(&b'*') {
                out.push(PrintfArg::I32);
                *k += 1;
            } else {
                while *k < b.len() && b[*k].is_ascii_digit() {
                    *k += 1;
                }
            }
        };
        star(&mut k, &mut out);
        if b.get(k) == Some(&b'.') {
            k += 1;
            star(&mut k, &mut out);
        }
        let mut long = false;
        while k < b.len() && b"hlLqjzt".contains(&b[k]) {
            if matches!(b[k], b'l' | b'L' | b'q' | b'j' | b'z' | b't') {
                long = true;
            }
            k += 1;
        }
        let Some(&c) = b.get(k) else {
            return Err("format ends inside a conversion".into());
        };
        k += 1;
        out.push(match c {
            b'd' | b'i' | b'u' | b'x' | b'X' | b'o' | b'c' => {
                if long {
                    PrintfArg::I64
                } else {
                    PrintfArg::I32
                }
            }
            b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => PrintfArg::F64,
            b's' | b'p' => PrintfArg::Ptr,
            other => return Err(format!("unsupported conversion `%{}`", other as char)),
        });
    }
    Ok(out)
}

impl<'m, 'p> FnCx<'m, 'p> {
    /// The module variable an operand's value is the address of, following
    /// single definitions through `mov` and `cvta`.
    fn trace_symbol(&self, o: &Operand, depth: u32) -> Option<String> {
        if depth > 16 {
            return None;
        }
        match o {
            Operand::Sym(s) => Some(s.clone()),
            Operand::Reg(r, false) => {
                let defs = self.defs.get(r)?;
                if defs.len() != 1 {
                    return None;
                }
                let d = defs[0];
                if d.guard.is_some() || !matches!(d.op, Opcode::Mov | Opcode::Cvta) {
                    return None;
                }
                self.trace_symbol(d.args.get(1)?, depth + 1)
            }
            _ => None,
        }
    }

    /// The NUL-terminated string stored in a module variable.
    fn string_of(&self, sym: &str) -> Option<String> {
        let bytes = self.mc.data.get(sym)?;
        let end = bytes.iter().position(|&c| c == 0).unwrap_or(bytes.len());
        Some(String::from_utf8_lossy(&bytes[..end]).into_owned())
    }

    fn call_string(&self, args: &[Operand], k: usize) -> Option<String> {
        let Some(Operand::Sym(slot)) = args.get(k) else {
            return None;
        };
        let src = self.param_src.get(slot)?;
        let sym = self.trace_symbol(src, 0)?;
        self.string_of(&sym)
    }

    fn slot(&self, o: &Operand, pos: Pos) -> Result<Value> {
        match o {
            Operand::Sym(s) => match self.locals.get(s.as_str()) {
                Some(Local::Mem(p)) => Ok(*p),
                _ => match self.fparams.get(s.as_str()) {
                    Some(&p) => Ok(p),
                    None => err(pos, format!("`{s}` is not a declared .param")),
                },
            },
            _ => err(pos, "call arguments must be .param names"),
        }
    }

    pub(super) fn call(&mut self, i: &'p Inst) -> Result<()> {
        let pos = i.pos;
        let mut k = 0;
        let rets: Vec<Operand> = match i.args.first() {
            Some(Operand::List(r)) => {
                k = 1;
                r.clone()
            }
            _ => Vec::new(),
        };
        let callee = i.args.get(k);
        let args: Vec<Operand> = match i.args.get(k + 1) {
            Some(Operand::List(a)) => a.clone(),
            None => Vec::new(),
            Some(_) => return err(pos, "`call` arguments must be a parenthesised list"),
        };
        let name = match callee {
            Some(Operand::Sym(s))
                if !self.mc.fn_numbers.contains_key(s) || i.args.len() <= k + 2 =>
            {
                s.clone()
            }
            Some(target @ (Operand::Reg(..) | Operand::Sym(_))) => {
                return self.indirect_call(target, &rets, &args, i.args.get(k + 2), pos);
            }
            _ => return err(pos, "`call` needs a function name"),
        };
        if i.args.len() > k + 2 {
            return err(pos, "a direct call names no prototype");
        }
        match name.as_str() {
            "vprintf" => self.vprintf(&rets, &args, pos),
            "__assertfail" => {
                let msg = self.call_string(&args, 0).unwrap_or_default();
                let file = self.call_string(&args, 1).unwrap_or_default();
                let func = self.call_string(&args, 3).unwrap_or_default();
                let line = match args.get(2) {
                    Some(Operand::Sym(s)) => match self.param_src.get(s) {
                        Some(Operand::Imm(Num::Int(l))) => l.to_string(),
                        _ => "?".to_string(),
                    },
                    _ => "?".to_string(),
                };
                let message = format!("{file}:{line}: {func}: Assertion `{msg}` failed.");
                self.b().trap(message, true);
                Ok(())
            }
            _ => {
                let Some(&(fid, callee)) = self.mc.funcs.get(&name) else {
                    return err(pos, format!("call to unknown function `{name}`"));
                };
                if rets.len() != callee.rets.len() || args.len() != callee.params.len() {
                    return err(
                        pos,
                        format!("call to `{name}` with the wrong number of arguments"),
                    );
                }
                let mut ptrs = Vec::new();
                for o in rets.iter().chain(&args) {
                    ptrs.push(self.slot(o, pos)?);
                }
                self.b().call(fid, ptrs, &[]);
                Ok(())
            }
        }
    }

    /// `call (rets), %target, (args), proto;`: dispatches on the pointer's
    /// number over the address-taken functions that fit `proto`.
    fn indirect_call(
        &mut self,
        target: &Operand,
        rets: &[Operand],
        args: &[Operand],
        proto: Option<&Operand>,
        pos: Pos,
    ) -> Result<()> {
        let proto = match proto {
            Some(Operand::Sym(p)) => match self.f.prototypes.iter().find(|q| &q.name == p) {
                Some(q) => q,
                None => {
                    return err(
                        pos,
                        format!("`{p}` is not a `.callprototype` of this function"),
                    )
                }
            },
            Some(Operand::List(_)) => {
                return err(
                    pos,
                    "indirect calls through a `.calltargets` list are not supported",
                )
            }
            _ => return err(pos, "an indirect call needs a `.callprototype`"),
        };
        if rets.len() != proto.rets.len() || args.len() != proto.params.len() {
            return err(
                pos,
                format!(
                    "call with the wrong number of arguments for `{}`",
                    proto.name
                ),
            );
        }
        let sizes = |ps: &[Param]| ps.iter().map(Param::bytes).collect::<Vec<_>>();
        let (want_rets, want_params) = (sizes(&proto.rets), sizes(&proto.params));
        let mut candidates: Vec<(u64, FuncId)> = Vec::new();
        for (name, &n) in &self.mc.fn_numbers {
            if let Some(&(id, f)) = self.mc.funcs.get(name) {
                if sizes(&f.rets) == want_rets && sizes(&f.params) == want_params {
                    candidates.push((n, id));
                }
            }
        }
        candidates.sort_unstable();
        let mut slots = Vec::new();
        for o in rets.iter().chain(args) {
            slots.push(self.slot(o, pos)?);
        }
        let i64t = self.types().i64();
        let ptr = self.read(target, PtxType::int(64, false), pos)?;
        let ptr = self.convert(ptr, i64t, false, pos)?;
        let message = format!(
            "indirect call through `{}` to an address that is not a device function of this module",
            proto.name
        );
        dispatch(&mut self.b(), ptr, &candidates, &slots, &message);
        Ok(())
    }

    fn vprintf(&mut self, rets: &[Operand], args: &[Operand], pos: Pos) -> Result<()> {
        let format = self
            .call_string(args, 0)
            .ok_or_else(|| Error::new(pos, "vprintf's format is not a constant string"))?;
        let kinds =
            printf_args(&format).map_err(|m| Error::new(pos, format!("printf format: {m}")))?;
        let mut vals = Vec::new();
        if !kinds.is_empty() {
            let slot = self.slot(
                args.get(1)
                    .ok_or_else(|| Error::new(pos, "vprintf needs two arguments"))?,
                pos,
            )?;
            let i64t = self.types().i64();
            let i32t = self.types().i32();
            let f64t = self.types().f64();
            let gp = self.types().ptr(Space::Generic);
            let i8t = self.types().i8();
            let mut b = self.b();
            let buf = b.load(slot, i64t);
            let buf = b.cast(CastOp::IntToPtr, buf, gp);
            let mut off = 0u64;
            for k in kinds {
                let (size, ty) = match k {
                    PrintfArg::I32 => (4, i32t),
                    PrintfArg::I64 => (8, i64t),
                    PrintfArg::F64 => (8, f64t),
                    PrintfArg::Ptr => (8, i64t),
                };
                off = off.div_ceil(size) * size;
                let o = b.i64(off as i64);
                let p = b.ptr_index(buf, o, i8t);
                let v = b.load(p, ty);
                let v = if k == PrintfArg::Ptr {
                    b.cast(CastOp::IntToPtr, v, gp)
                } else {
                    v
                };
                vals.push(v);
                off += size;
            }
        }
        let n = vals.len();
        self.b().op(OpKind::Printf { format }, vals, &[], vec![]);
        if let Some(r) = rets.first() {
            let slot = self.slot(r, pos)?;
            let mut b = self.b();
            let v = b.i32(n as i32);
            b.store(slot, v);
        }
        Ok(())
    }
}

/// `if ptr == n0 { call f0 } else if ptr == n1 { ... } else { trap }`.
fn dispatch(
    b: &mut Builder<'_>,
    ptr: Value,
    cands: &[(u64, FuncId)],
    slots: &[Value],
    message: &str,
) {
    let Some((&(n, id), rest)) = cands.split_first() else {
        b.trap(message, false);
        return;
    };
    let k = b.i64(n as i64);
    let hit = b.cmp(CmpPred::Eq, ptr, k);
    b.if_else(
        hit,
        &[],
        |b| {
            b.call(id, slots.to_vec(), &[]);
            vec![]
        },
        |b| {
            dispatch(b, ptr, rest, slots, message);
            vec![]
        },
    );
}

/// The functions whose address `m` takes, numbered from 1 in module order:
/// names read as values by instructions other than as a call's callee, and
/// names in variable initialisers.
pub(super) fn function_numbers(m: &PtxModule) -> HashMap<String, u64> {
    let funcs: HashSet<&str> = m.functions.iter().map(|f| f.name.as_str()).collect();
    let mut taken: HashSet<&str> = HashSet::new();
    fn visit<'a>(o: &'a Operand, funcs: &HashSet<&str>, taken: &mut HashSet<&'a str>) {
        match o {
            Operand::Sym(s) if funcs.contains(s.as_str()) => {
                taken.insert(s.as_str());
            }
            Operand::Addr(b, _) | Operand::Tex(b, _) => visit(b, funcs, taken),
            Operand::Vec(v) | Operand::List(v) => v.iter().for_each(|o| visit(o, funcs, taken)),
            _ => {}
        }
    }
    for v in &m.vars {
        for it in v.init.iter().flatten() {
            if let Init::Addr(s, _) = it {
                if funcs.contains(s.as_str()) {
                    taken.insert(s.as_str());
                }
            }
        }
    }
    for f in &m.functions {
        for st in f.body.iter().flatten() {
            let Stmt::Inst(i) = st else { continue };
            let callee = if i.op == Opcode::Call {
                usize::from(matches!(i.args.first(), Some(Operand::List(_))))
            } else {
                usize::MAX
            };
            for (k, o) in i.args.iter().enumerate() {
                if k != callee {
                    visit(o, &funcs, &mut taken);
                }
            }
        }
    }
    let mut out = HashMap::new();
    for f in &m.functions {
        if taken.contains(f.name.as_str()) && !out.contains_key(&f.name) {
            let n = out.len() as u64 + 1;
            out.insert(f.name.clone(), n);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use cucc_ir::interp::{Arg, Interpreter, LaunchConfig};
    use cucc_ir::Space;

    /// A table of two `.func`s, a third taken with `mov`, and a kernel that
    /// calls `table[k]` then the `mov`'d one through prototypes, as nvcc
    /// writes them.
    const PTX: &str = r#"
.version 8.0
.target sm_80
.address_size 64
.func (.param .b32 r) dbl(.param .b32 x);
.func (.param .b32 r) inc(.param .b32 x);
.global .align 8 .u64 table[2] = {dbl, inc};
.func (.param .b32 r) dbl(.param .b32 x)
{
    .reg .b32 %r<3>;
    ld.param.u32 %r1, [x];
    add.s32 %r2, %r1, %r1;
    st.param.b32 [r], %r2;
    ret;
}
.func (.param .b32 r) inc(.param .b32 x)
{
    .reg .b32 %r<3>;
    ld.param.u32 %r1, [x];
    add.s32 %r2, %r1, 1;
    st.param.b32 [r], %r2;
    ret;
}
.func sink(.param .b64 p, .param .b32 v)
{
    .reg .b32 %r<2>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [p];
    ld.param.u32 %r1, [v];
    st.u32 [%rd1], %r1;
    ret;
}
.visible .entry k(.param .u64 out, .param .u64 bad)
{
    .reg .b32 %r<8>;
    .reg .b64 %rd<12>;
    ld.param.u64 %rd1, [out];
    ld.param.u64 %rd11, [bad];
    mov.u32 %r1, %tid.x;
    and.b32 %r2, %r1, 1;
    mul.wide.u32 %rd2, %r2, 8;
    mov.u64 %rd3, table;
    add.s64 %rd4, %rd3, %rd2;
    ld.global.u64 %rd5, [%rd4];
    add.s64 %rd5, %rd5, %rd11;
    {
    .param .b32 param0;
    st.param.b32 [param0+0], %r1;
    .param .b32 retval0;
    prototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);
    call (retval0), %rd5, (param0), prototype_0;
    ld.param.b32 %r3, [retval0+0];
    }
    mul.wide.u32 %rd6, %r1, 4;
    add.s64 %rd7, %rd1, %rd6;
    mov.u64 %rd8, sink;
    {
    .param .b64 param0;
    st.param.b64 [param0+0], %rd7;
    .param .b32 param1;
    st.param.b32 [param1+0], %r3;
    prototype_1 : .callprototype ()_ (.param .b64 _, .param .b32 _);
    call %rd8, (param0, param1), prototype_1;
    }
    ret;
}
"#;

    fn module() -> cucc_ir::Module {
        let m = match crate::lower_ptx(PTX, "k.ptx") {
            Ok(m) => m,
            Err(e) => panic!("{e}"),
        };
        if let Err(e) = cucc_ir::verify_module(&m) {
            panic!("{e:?}");
        }
        m
    }

    fn run(bad: i64) -> Result<Vec<u32>, String> {
        let m = module();
        let mut it = Interpreter::new(&m);
        let out = it.memory.alloc(Space::Global, 32);
        it.launch(
            "k",
            &LaunchConfig::linear(1, 8),
            &[Arg::ptr(out), Arg::i64(bad)],
        )
        .map_err(|e| e.to_string())?;
        let bytes = it.memory.read(out, 32).map_err(|e| e.to_string())?;
        Ok(bytes
            .chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }

    #[test]
    fn address_taken_functions_are_numbered_in_module_order() {
        let m = match crate::parse::parse(PTX) {
            Ok(m) => m,
            Err(e) => panic!("{e:?}"),
        };
        let n = super::function_numbers(&m);
        assert_eq!(n.get("dbl"), Some(&1));
        assert_eq!(n.get("inc"), Some(&2));
        assert_eq!(n.get("sink"), Some(&3));
        assert_eq!(n.len(), 3);
        let k = m
            .functions
            .iter()
            .find(|f| f.name == "k")
            .map(|f| &f.prototypes);
        let names: Vec<_> = k
            .into_iter()
            .flatten()
            .map(|p| (p.name.as_str(), p.rets.len(), p.params.len()))
            .collect();
        assert_eq!(names, [("prototype_0", 1, 1), ("prototype_1", 0, 2)]);
    }

    #[test]
    fn calls_through_tables_and_registers_reach_their_targets() {
        let got = run(0);
        let want: Vec<u32> = (0..8)
            .map(|t| if t % 2 == 0 { 2 * t } else { t + 1 })
            .collect();
        assert_eq!(got, Ok(want));
    }

    #[test]
    fn a_pointer_that_is_no_function_traps() {
        // Adding 2 turns `dbl` (1) into 3, `sink`'s number, whose signature
        // does not fit, and `inc` (2) into 4, no function at all.
        match run(2) {
            Err(e) => assert!(e.contains("not a device function"), "{e}"),
            Ok(v) => panic!("ran: {v:?}"),
        }
    }

    #[test]
    fn malformed_indirect_calls_are_reported() {
        let cases = [
            (
                "prototype_0 : .callprototype",
                "  .callprototype",
                "needs a label",
            ),
            (
                "(param0), prototype_0;",
                "(param0), nothing;",
                "`nothing` is not a `.callprototype`",
            ),
            (
                "(param0), prototype_0;",
                "(param0);",
                "needs a `.callprototype`",
            ),
            (
                "call (retval0), %rd5, (param0)",
                "call %rd5, (param0)",
                "wrong number of arguments",
            ),
        ];
        for (from, to, want) in cases {
            let src = PTX.replacen(from, to, 1);
            match crate::lower_ptx(&src, "k.ptx") {
                Err(e) => assert!(e.to_string().contains(want), "{from} -> {to}: {e}"),
                Ok(_) => panic!("{from} -> {to}: accepted"),
            }
        }
    }
}
