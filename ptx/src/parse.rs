//! The PTX parser: directives, declarations, functions and instructions.
//!
//! Only what nvcc emits is accepted; anything else is an error naming the
//! construct and its position. `.file` and `.loc` give instructions their
//! CUDA source position (nvcc's `-lineinfo`); `.section` debug data and
//! performance hints (`.maxntid`, `.pragma`, ...) are read and dropped. Each instruction is decoded into its typed form
//! ([`crate::decode`]) as soon as it is read.

use super::ast::*;
use super::decode::decode;
use super::inst::{Guard, Inst};
use super::lex::{lex, Tok, Token};
use super::{Error, Pos, Result};

/// Parses a whole PTX module.
pub fn parse(src: &str) -> Result<PtxModule> {
    let toks = lex(src)?;
    let mut p = Parser {
        toks,
        i: 0,
        end: Pos::default(),
        src: None,
    };
    p.end = end_pos(src);
    p.module()
}

fn end_pos(src: &str) -> Pos {
    let line = src.lines().count().max(1) as u32;
    let col = src
        .lines()
        .last()
        .map(|l| l.chars().count() as u32 + 1)
        .unwrap_or(1);
    Pos { line, col }
}

/// Reads a numeric literal as spelled.
pub fn parse_num(s: &str) -> Option<Num> {
    let t = s.strip_suffix('U').unwrap_or(s);
    if let Some(h) = t.strip_prefix("0f").or_else(|| t.strip_prefix("0F")) {
        if h.len() == 8 {
            return u32::from_str_radix(h, 16).ok().map(Num::F32);
        }
        return None;
    }
    if let Some(h) = t.strip_prefix("0d").or_else(|| t.strip_prefix("0D")) {
        if h.len() == 16 {
            return u64::from_str_radix(h, 16).ok().map(Num::F64);
        }
        return None;
    }
    if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        return u64::from_str_radix(h, 16).ok().map(|v| Num::Int(v as i64));
    }
    if t.contains('.') || t.contains('e') || t.contains('E') {
        return t.parse::<f64>().ok().map(Num::Dec);
    }
    if t.len() > 1 && t.starts_with('0') {
        return u64::from_str_radix(&t[1..], 8)
            .ok()
            .map(|v| Num::Int(v as i64));
    }
    t.parse::<u64>().ok().map(|v| Num::Int(v as i64))
}

struct Parser {
    toks: Vec<Token>,
    i: usize,
    end: Pos,
    /// The last `.loc` in the current function: `(file, line, column)`.
    src: Option<(u32, u32, u32)>,
}

const PERF_DIRECTIVES: &[&str] = &[
    ".maxntid",
    ".reqntid",
    ".minnctapersm",
    ".maxnctapersm",
    ".maxnreg",
    ".maxclusterrank",
    ".reqnctapercluster",
    ".explicitcluster",
    ".noreturn",
    ".pragma",
    ".abi_preserve",
    ".abi_preserve_control",
];

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.i).map(|t| &t.tok)
    }

    fn peek_at(&self, k: usize) -> Option<&Tok> {
        self.toks.get(self.i + k).map(|t| &t.tok)
    }

    fn pos(&self) -> Pos {
        self.toks.get(self.i).map(|t| t.pos).unwrap_or(self.end)
    }

    fn err<T>(&self, msg: impl Into<String>) -> Result<T> {
        Err(Error::new(self.pos(), msg))
    }

    fn found(&self) -> String {
        match self.peek() {
            Some(t) => t.describe(),
            None => "the end of the file".to_string(),
        }
    }

    fn is_punct(&self, c: char) -> bool {
        self.peek() == Some(&Tok::Punct(c))
    }

    fn eat_punct(&mut self, c: char) -> bool {
        if self.is_punct(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn expect_punct(&mut self, c: char) -> Result<()> {
        if self.eat_punct(c) {
            Ok(())
        } else {
            self.err(format!("expected `{c}`, found {}", self.found()))
        }
    }

    fn is_word(&self, w: &str) -> bool {
        matches!(self.peek(), Some(Tok::Word(x)) if x == w)
    }

    fn eat_word(&mut self, w: &str) -> bool {
        if self.is_word(w) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn word(&mut self, what: &str) -> Result<String> {
        match self.peek() {
            Some(Tok::Word(w)) => {
                let w = w.clone();
                self.i += 1;
                Ok(w)
            }
            _ => self.err(format!("expected {what}, found {}", self.found())),
        }
    }

    fn uint(&mut self, what: &str) -> Result<u64> {
        match self.peek() {
            Some(Tok::Num(n)) => match parse_num(n) {
                Some(Num::Int(v)) if v >= 0 => {
                    self.i += 1;
                    Ok(v as u64)
                }
                _ => self.err(format!("expected {what}, found `{n}`")),
            },
            _ => self.err(format!("expected {what}, found {}", self.found())),
        }
    }

    /// An instruction with the source position of the `.loc` before it.
    fn located_inst(&mut self) -> Result<Inst> {
        let mut i = self.inst()?;
        i.src = self.src;
        Ok(i)
    }

    /// `.file N "path" [, timestamp, size]` at the current token: the
    /// number and path, or `None` if it has another shape (it is debug
    /// information only, never an error).
    fn file_directive(&self) -> Option<(u32, String)> {
        let line = self.pos().line;
        let toks = &self.toks[self.i..];
        match (toks.get(1), toks.get(2)) {
            (Some(n), Some(p)) if n.pos.line == line && p.pos.line == line => {
                match (&n.tok, &p.tok) {
                    (Tok::Num(n), Tok::Str(path)) => Some((n.parse().ok()?, path.clone())),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// `.loc F L C[, ...]` at the current token: file, line and column.
    fn loc_directive(&self) -> Option<(u32, u32, u32)> {
        let line = self.pos().line;
        let mut nums = self.toks[self.i + 1..]
            .iter()
            .take_while(|t| t.pos.line == line)
            .take(3)
            .map(|t| match &t.tok {
                Tok::Num(n) => n.parse::<u32>().ok(),
                _ => None,
            });
        Some((nums.next()??, nums.next()??, nums.next()??))
    }

    /// Skips the tokens on the current token's line (for `.loc`, `.file`).
    fn skip_line(&mut self) {
        let line = self.pos().line;
        while self.i < self.toks.len() && self.toks[self.i].pos.line == line {
            self.i += 1;
        }
    }

    /// Skips through the next `;` (or up to a `{`).
    fn skip_hint(&mut self) {
        while let Some(t) = self.peek() {
            match t {
                Tok::Punct(';') => {
                    self.i += 1;
                    return;
                }
                Tok::Punct('{') => return,
                _ => self.i += 1,
            }
        }
    }

    fn module(&mut self) -> Result<PtxModule> {
        let mut m = PtxModule::default();
        while let Some(t) = self.peek().cloned() {
            let pos = self.pos();
            let Tok::Word(w) = t else {
                return self.err(format!("expected a directive, found {}", t.describe()));
            };
            match w.as_str() {
                ".version" => {
                    self.i += 1;
                    match self.peek().cloned() {
                        Some(Tok::Num(n)) => {
                            self.i += 1;
                            m.version = Some(n);
                        }
                        _ => {
                            return self
                                .err(format!("expected a version number, found {}", self.found()))
                        }
                    }
                }
                ".target" => {
                    self.i += 1;
                    loop {
                        m.target.push(self.word("a target name")?);
                        if !self.eat_punct(',') {
                            break;
                        }
                    }
                }
                ".address_size" => {
                    self.i += 1;
                    let n = self.uint("an address size")?;
                    if n != 64 {
                        return Err(Error::new(
                            pos,
                            format!(".address_size {n} is not supported (only 64)"),
                        ));
                    }
                    m.address_size = Some(n);
                }
                ".file" => {
                    if let Some(f) = self.file_directive() {
                        m.files.push(f);
                    }
                    self.skip_line();
                }
                ".loc" => self.skip_line(),
                ".section" => {
                    self.i += 1;
                    self.word("a section name")?;
                    self.skip_braces()?;
                }
                ".pragma" => self.skip_hint(),
                _ => self.toplevel(&mut m)?,
            }
        }
        Ok(m)
    }

    fn skip_braces(&mut self) -> Result<()> {
        self.expect_punct('{')?;
        let mut depth = 1;
        while depth > 0 {
            match self.peek() {
                None => return self.err("expected `}`, found the end of the file"),
                Some(Tok::Punct('{')) => depth += 1,
                Some(Tok::Punct('}')) => depth -= 1,
                _ => {}
            }
            self.i += 1;
        }
        Ok(())
    }

    fn toplevel(&mut self, m: &mut PtxModule) -> Result<()> {
        let mut external = false;
        loop {
            if self.eat_word(".visible") || self.eat_word(".weak") || self.eat_word(".common") {
                continue;
            }
            if self.eat_word(".extern") {
                external = true;
                continue;
            }
            break;
        }
        let pos = self.pos();
        if self.eat_word(".entry") {
            let f = self.function(true, pos)?;
            m.functions.push(f);
            return Ok(());
        }
        if self.eat_word(".func") {
            let f = self.function(false, pos)?;
            m.functions.push(f);
            return Ok(());
        }
        match self.peek() {
            Some(Tok::Word(w))
                if StateSpace::from_name(&w[1..]).is_some() && w.starts_with('.') =>
            {
                for mut v in self.var_decl()? {
                    v.external |= external;
                    m.vars.push(v);
                }
                Ok(())
            }
            _ => self.err(format!("unsupported directive {}", self.found())),
        }
    }

    fn params(&mut self) -> Result<Vec<Param>> {
        let mut out = Vec::new();
        self.expect_punct('(')?;
        if self.eat_punct(')') {
            return Ok(out);
        }
        loop {
            let pos = self.pos();
            let space = self.word("`.param`")?;
            if space != ".param" && space != ".reg" {
                return Err(Error::new(
                    pos,
                    format!("expected `.param`, found `{space}`"),
                ));
            }
            let mut align = None;
            let mut ty = None;
            loop {
                if self.eat_word(".align") {
                    align = Some(self.uint("an alignment")?);
                    continue;
                }
                if self.eat_word(".ptr") {
                    continue;
                }
                if let Some(Tok::Word(w)) = self.peek() {
                    if let Some(s) = w.strip_prefix('.') {
                        if let Some(t) = PtxType::from_name(s) {
                            ty = Some(t);
                            self.i += 1;
                            continue;
                        }
                        if StateSpace::from_name(s).is_some() {
                            // `.ptr .global .align 4`: pointee hints.
                            self.i += 1;
                            continue;
                        }
                        return self.err(format!("unsupported parameter attribute `{w}`"));
                    }
                }
                break;
            }
            let Some(ty) = ty else {
                return self.err(format!("expected a parameter type, found {}", self.found()));
            };
            let name = self.word("a parameter name")?;
            let array = if self.eat_punct('[') {
                let n = self.uint("an array size")?;
                self.expect_punct(']')?;
                Some(n)
            } else {
                None
            };
            out.push(Param {
                ty,
                align,
                name,
                array,
                pos,
            });
            if self.eat_punct(')') {
                return Ok(out);
            }
            self.expect_punct(',')?;
        }
    }

    fn function(&mut self, entry: bool, pos: Pos) -> Result<Function> {
        let rets = if !entry && self.is_punct('(') {
            self.params()?
        } else {
            Vec::new()
        };
        let name = self.word("a function name")?;
        let params = if self.is_punct('(') {
            self.params()?
        } else {
            Vec::new()
        };
        // Performance hints between the signature and the body.
        while let Some(Tok::Word(w)) = self.peek() {
            if PERF_DIRECTIVES.contains(&w.as_str()) {
                self.i += 1;
                while matches!(
                    self.peek(),
                    Some(Tok::Num(_)) | Some(Tok::Punct(',')) | Some(Tok::Str(_))
                ) {
                    self.i += 1;
                }
                self.eat_punct(';');
            } else {
                return self.err(format!("unsupported function directive `{w}`"));
            }
        }
        if self.eat_punct(';') {
            return Ok(Function {
                entry,
                name,
                rets,
                params,
                body: None,
                prototypes: Vec::new(),
                pos,
            });
        }
        self.expect_punct('{')?;
        let (body, prototypes) = self.body()?;
        Ok(Function {
            entry,
            name,
            rets,
            params,
            body: Some(body),
            prototypes,
            pos,
        })
    }

    fn body(&mut self) -> Result<(Vec<Stmt>, Vec<Prototype>)> {
        self.src = None;
        let mut out = Vec::new();
        let mut prototypes = Vec::new();
        let mut depth = 1;
        loop {
            let pos = self.pos();
            let Some(t) = self.peek().cloned() else {
                return self.err("expected `}`, found the end of the file");
            };
            match t {
                Tok::Punct('{') => {
                    self.i += 1;
                    depth += 1;
                }
                Tok::Punct('}') => {
                    self.i += 1;
                    depth -= 1;
                    if depth == 0 {
                        return Ok((out, prototypes));
                    }
                }
                Tok::Punct('@') => out.push(Stmt::Inst(self.located_inst()?)),
                Tok::Word(w) => {
                    if self.peek_at(1) == Some(&Tok::Punct(':')) && !w.starts_with('.') {
                        self.i += 2;
                        out.push(Stmt::Label(w, pos));
                    } else if w == ".loc" {
                        self.src = self.loc_directive();
                        self.skip_line();
                    } else if w == ".file" {
                        self.skip_line();
                    } else if w == ".pragma" {
                        self.skip_hint();
                    } else if w == ".callprototype" {
                        let Some(Stmt::Label(name, _)) = out.pop() else {
                            return self.err("`.callprototype` needs a label");
                        };
                        self.i += 1;
                        prototypes.push(self.prototype(name, pos)?);
                    } else if w == ".branchtargets" {
                        self.i += 1;
                        let mut t = Vec::new();
                        loop {
                            t.push(self.word("a label")?);
                            if self.eat_punct(';') {
                                break;
                            }
                            self.expect_punct(',')?;
                        }
                        out.push(Stmt::Targets(t, pos));
                    } else if let Some(d) = w.strip_prefix('.') {
                        match StateSpace::from_name(d) {
                            Some(_) => out.extend(self.var_decl()?.into_iter().map(Stmt::Var)),
                            None => {
                                return self
                                    .err(format!("unsupported directive `{w}` in a function body"))
                            }
                        }
                    } else {
                        out.push(Stmt::Inst(self.located_inst()?));
                    }
                }
                other => {
                    return self.err(format!(
                        "expected an instruction, found {}",
                        other.describe()
                    ))
                }
            }
        }
    }

    /// After `name: .callprototype`: `[(rets)] _ (params);`.
    fn prototype(&mut self, name: String, pos: Pos) -> Result<Prototype> {
        let rets = if self.is_punct('(') {
            self.params()?
        } else {
            Vec::new()
        };
        let placeholder = self.word("`_`")?;
        if placeholder != "_" {
            return self.err(format!(
                "expected `_` in `.callprototype`, found `{placeholder}`"
            ));
        }
        let params = if self.is_punct('(') {
            self.params()?
        } else {
            Vec::new()
        };
        self.expect_punct(';')?;
        Ok(Prototype {
            name,
            rets,
            params,
            pos,
        })
    }

    /// `.space [.align N] .type name[dims]<N> [= init] {, name...} ;`
    fn var_decl(&mut self) -> Result<Vec<VarDecl>> {
        let pos = self.pos();
        let w = self.word("a state space")?;
        let space = w
            .strip_prefix('.')
            .and_then(StateSpace::from_name)
            .ok_or_else(|| Error::new(pos, format!("expected a state space, found `{w}`")))?;
        let mut align = None;
        let mut ty = None;
        let mut vector = 1u64;
        loop {
            if self.eat_word(".align") {
                align = Some(self.uint("an alignment")?);
                continue;
            }
            if self.eat_word(".attribute") {
                // `.attribute(.managed)`: a `__managed__` variable. Kernels
                // use it as any global; the runtime shares its storage with
                // the host through `__cudaRegisterManagedVar`.
                self.expect_punct('(')?;
                let apos = self.pos();
                let a = self.word("a variable attribute")?;
                if a != ".managed" {
                    return Err(Error::new(
                        apos,
                        format!("unsupported variable attribute `{a}`"),
                    ));
                }
                self.expect_punct(')')?;
                continue;
            }
            if self.eat_word(".v2") {
                vector = 2;
                continue;
            }
            if self.eat_word(".v4") {
                vector = 4;
                continue;
            }
            if let Some(Tok::Word(w)) = self.peek() {
                if let Some(t) = w.strip_prefix('.').and_then(PtxType::from_name) {
                    ty = Some(t);
                    self.i += 1;
                    continue;
                }
                if w.starts_with('.') {
                    return self.err(format!("unsupported variable attribute `{w}`"));
                }
            }
            break;
        }
        let Some(ty) = ty else {
            return self.err(format!("expected a type, found {}", self.found()));
        };
        let mut all: Vec<VarDecl> = Vec::new();
        loop {
            let npos = self.pos();
            let name = self.word("a variable name")?;
            let mut dims = Vec::new();
            if vector > 1 {
                dims.push(Some(vector));
            }
            let mut range = None;
            if self.eat_punct('<') {
                let n = self.uint("a register count")?;
                self.expect_punct('>')?;
                range = Some(u32::try_from(n).map_err(|_| Error::new(npos, "too many registers"))?);
            }
            while self.eat_punct('[') {
                if self.eat_punct(']') {
                    dims.push(None);
                } else {
                    let n = self.uint("an array size")?;
                    self.expect_punct(']')?;
                    dims.push(Some(n));
                }
            }
            let init = if self.eat_punct('=') {
                Some(self.init()?)
            } else {
                None
            };
            let v = VarDecl {
                space,
                external: false,
                align,
                ty,
                name,
                dims,
                range,
                init,
                pos: npos,
            };
            if self.eat_punct(',') {
                // Only register lists declare several names at once.
                if space != StateSpace::Reg {
                    return self.err("several variables in one declaration are not supported");
                }
                all.push(v);
                continue;
            }
            self.expect_punct(';')?;
            all.push(v);
            return Ok(all);
        }
    }

    fn init(&mut self) -> Result<Vec<Init>> {
        let mut out = Vec::new();
        self.init_into(&mut out)?;
        Ok(out)
    }

    fn init_into(&mut self, out: &mut Vec<Init>) -> Result<()> {
        if self.eat_punct('{') {
            if self.eat_punct('}') {
                return Ok(());
            }
            loop {
                self.init_into(out)?;
                if self.eat_punct('}') {
                    return Ok(());
                }
                self.expect_punct(',')?;
            }
        }
        let neg = self.eat_punct('-');
        match self.peek().cloned() {
            Some(Tok::Num(n)) => {
                let v = parse_num(&n)
                    .ok_or_else(|| Error::new(self.pos(), format!("bad number `{n}`")))?;
                self.i += 1;
                out.push(Init::Num(negate(v, neg)));
                Ok(())
            }
            Some(Tok::Word(w)) => {
                self.i += 1;
                let name = if w == "generic" {
                    self.expect_punct('(')?;
                    let n = self.word("a symbol")?;
                    self.expect_punct(')')?;
                    n
                } else {
                    w
                };
                let mut off = 0i64;
                if self.eat_punct('+') {
                    off = self.uint("an offset")? as i64;
                }
                out.push(Init::Addr(name, off));
                Ok(())
            }
            _ => self.err(format!("expected an initialiser, found {}", self.found())),
        }
    }

    fn inst(&mut self) -> Result<Inst> {
        let pos = self.pos();
        let guard = if self.eat_punct('@') {
            let negated = self.eat_punct('!');
            let reg = self.word("a predicate register")?;
            Some(Guard { reg, negated })
        } else {
            None
        };
        let opos = self.pos();
        let full = self.word("an instruction")?;
        let op = full.split('.').next().unwrap_or_default();
        if op.is_empty() || op.starts_with('%') || op.starts_with('$') {
            return Err(Error::new(
                opos,
                format!("expected an instruction, found `{full}`"),
            ));
        }
        let mut args = Vec::new();
        if !self.eat_punct(';') {
            loop {
                let a = self.operand()?;
                if self.eat_punct('|') {
                    // `%p|%q`: a second (complementary) destination.
                    let b = self.operand()?;
                    args.push(Operand::Vec(vec![a, b]));
                } else {
                    args.push(a);
                }
                if self.eat_punct(';') {
                    break;
                }
                if !self.eat_punct(',') {
                    return self.err(format!(
                        "expected `,` or `;` after an operand of `{full}`, found {}",
                        self.found()
                    ));
                }
            }
        }
        decode(&full, guard, args, pos)
    }

    /// Comma-separated operands up to `close` (the opener already taken):
    /// a vector `{a, b}` needs one, a call's `(a, b)` list may be empty.
    fn operand_list(&mut self, close: char, allow_empty: bool) -> Result<Vec<Operand>> {
        let mut v = Vec::new();
        if allow_empty && self.eat_punct(close) {
            return Ok(v);
        }
        loop {
            v.push(self.operand()?);
            if self.eat_punct(close) {
                return Ok(v);
            }
            self.expect_punct(',')?;
        }
    }

    fn operand(&mut self) -> Result<Operand> {
        let Some(t) = self.peek().cloned() else {
            return self.err("expected an operand, found the end of the file");
        };
        match t {
            Tok::Punct('!') => {
                self.i += 1;
                let r = self.word("a predicate register")?;
                Ok(Operand::Reg(r, true))
            }
            Tok::Punct('-') => {
                self.i += 1;
                match self.peek().cloned() {
                    Some(Tok::Num(n)) => {
                        self.i += 1;
                        let v = parse_num(&n)
                            .ok_or_else(|| Error::new(self.pos(), format!("bad number `{n}`")))?;
                        Ok(Operand::Imm(negate(v, true)))
                    }
                    _ => self.err(format!(
                        "expected a number after `-`, found {}",
                        self.found()
                    )),
                }
            }
            Tok::Num(n) => {
                let v = parse_num(&n)
                    .ok_or_else(|| Error::new(self.pos(), format!("bad number `{n}`")))?;
                self.i += 1;
                Ok(Operand::Imm(v))
            }
            Tok::Word(w) => {
                self.i += 1;
                if w == "_" {
                    Ok(Operand::Sink)
                } else if w.starts_with('%') {
                    Ok(Operand::Reg(w, false))
                } else {
                    Ok(Operand::Sym(w))
                }
            }
            Tok::Punct('{') => {
                self.i += 1;
                Ok(Operand::Vec(self.operand_list('}', false)?))
            }
            Tok::Punct('(') => {
                self.i += 1;
                Ok(Operand::List(self.operand_list(')', true)?))
            }
            Tok::Punct('[') => {
                self.i += 1;
                let base = match self.peek().cloned() {
                    Some(Tok::Word(w)) if w.starts_with('%') => {
                        self.i += 1;
                        Operand::Reg(w, false)
                    }
                    Some(Tok::Word(w)) => {
                        self.i += 1;
                        Operand::Sym(w)
                    }
                    Some(Tok::Num(n)) => {
                        self.i += 1;
                        let v = parse_num(&n)
                            .ok_or_else(|| Error::new(self.pos(), format!("bad number `{n}`")))?;
                        Operand::Imm(v)
                    }
                    _ => return self.err(format!("expected an address, found {}", self.found())),
                };
                if self.eat_punct(',') {
                    let coords = match self.operand()? {
                        Operand::Vec(v) => v,
                        other => vec![other],
                    };
                    self.expect_punct(']')?;
                    return Ok(Operand::Tex(Box::new(base), coords));
                }
                let mut off = 0i64;
                while self.is_punct('+') || self.is_punct('-') {
                    let neg = self.is_punct('-');
                    self.i += 1;
                    let neg = neg ^ self.eat_punct('-');
                    match self.peek().cloned() {
                        Some(Tok::Num(n)) => match parse_num(&n) {
                            Some(Num::Int(v)) => {
                                self.i += 1;
                                off = if neg {
                                    off.wrapping_sub(v)
                                } else {
                                    off.wrapping_add(v)
                                };
                            }
                            _ => return self.err(format!("bad address offset `{n}`")),
                        },
                        _ => {
                            return self.err(format!(
                                "expected an address offset, found {}",
                                self.found()
                            ))
                        }
                    }
                }
                self.expect_punct(']')?;
                Ok(Operand::Addr(Box::new(base), off))
            }
            other => self.err(format!("expected an operand, found {}", other.describe())),
        }
    }
}

fn negate(v: Num, neg: bool) -> Num {
    if !neg {
        return v;
    }
    match v {
        Num::Int(i) => Num::Int(i.wrapping_neg()),
        Num::F32(b) => Num::F32(b ^ 0x8000_0000),
        Num::F64(b) => Num::F64(b ^ (1 << 63)),
        Num::Dec(d) => Num::Dec(-d),
    }
}
