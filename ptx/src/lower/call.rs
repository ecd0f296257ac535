//! Calls: `.func`s of the module, `vprintf` and `__assertfail`.

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
        let name = match i.args.get(k) {
            Some(Operand::Sym(s)) => s.clone(),
            Some(Operand::Reg(..)) => return err(pos, "indirect calls are not supported"),
            _ => return err(pos, "`call` needs a function name"),
        };
        let args: Vec<Operand> = match i.args.get(k + 1) {
            Some(Operand::List(a)) => a.clone(),
            None => Vec::new(),
            Some(_) => return err(pos, "`call` arguments must be a parenthesised list"),
        };
        if i.args.len() > k + 2 {
            return err(pos, "calls through a prototype are not supported");
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
                self.b().op(
                    OpKind::Trap {
                        message,
                        assert: true,
                    },
                    vec![],
                    &[],
                    vec![],
                );
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
