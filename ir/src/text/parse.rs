//! Reads the text format back into a module: top-level items (files,
//! struct types, globals, function headers) and the shared token helpers.
//! Ops are read by the `parse_op` module.

use super::lexer::{lex, Tok, Token};
use super::literal::{is_numeric, parse_hex_bytes};
use super::ParseError;
use crate::func::{Function, FunctionKind, Op, ParamAttrs, Region, Value};
use crate::loc::Loc;
use crate::module::{FuncId, Global, GlobalId, GlobalKind, Linkage, Module};
use crate::ops::{Callee, OpKind};
use crate::types::{Field, FloatKind, Space, StructType, Type, TypeId};
use std::collections::HashMap;

/// How deeply regions and array types may nest; keeps recursion bounded
/// on hostile input.
pub(super) const MAX_DEPTH: u32 = 100;

/// A call to a module function, resolved once every function is known
/// (functions may be called before their definition).
struct PendingCall {
    func: FuncId,
    op: Op,
    name: String,
    line: u32,
    col: u32,
}

/// The function being parsed and its value names.
pub(super) struct FnState {
    pub func: Function,
    pub id: FuncId,
    values: HashMap<String, Value>,
}

impl FnState {
    /// Gives `v` the name spelled by `tok` (a value token), rejecting repeats.
    pub fn define(&mut self, tok: &Token, v: Value) -> Result<(), ParseError> {
        let Tok::Value { text, quoted } = &tok.tok else {
            return Err(error_at(
                tok,
                format!("expected a value name, found {}", tok.tok.describe()),
            ));
        };
        if self.values.contains_key(text) {
            return Err(error_at(
                tok,
                format!("value {} is defined twice", tok.tok.describe()),
            ));
        }
        self.values.insert(text.clone(), v);
        if *quoted || !is_numeric(text) {
            self.func.values[v].name = Some(text.clone());
        }
        Ok(())
    }

    /// The value a use token names.
    pub fn lookup(&self, tok: &Token) -> Result<Value, ParseError> {
        match &tok.tok {
            Tok::Value { text, .. } => self
                .values
                .get(text)
                .copied()
                .ok_or_else(|| error_at(tok, format!("unknown value {}", tok.tok.describe()))),
            other => Err(error_at(
                tok,
                format!("expected a value, found {}", other.describe()),
            )),
        }
    }
}

/// An error located at `tok`.
pub(super) fn error_at(tok: &Token, message: String) -> ParseError {
    ParseError {
        line: tok.line,
        col: tok.col,
        message,
    }
}

/// The parser's state: tokens, the module so far and the symbol tables.
pub(super) struct Parser {
    toks: Vec<Token>,
    pos: usize,
    pub module: Module,
    types: HashMap<String, TypeId>,
    globals: HashMap<String, GlobalId>,
    funcs: HashMap<String, FuncId>,
    calls: Vec<PendingCall>,
}

/// Parses a whole module.
pub(super) fn parse(src: &str) -> Result<Module, ParseError> {
    let toks = lex(src)?;
    let mut p = Parser {
        toks,
        pos: 0,
        module: Module::new(),
        types: HashMap::new(),
        globals: HashMap::new(),
        funcs: HashMap::new(),
        calls: Vec::new(),
    };
    p.items()?;
    p.resolve_calls()?;
    Ok(p.module)
}

impl Parser {
    // ---- token helpers ------------------------------------------------------

    /// The next token (the final `Eof` once the input is used up).
    pub fn peek(&self) -> &Token {
        let last = self.toks.len().saturating_sub(1);
        &self.toks[self.pos.min(last)]
    }

    /// Consumes and returns the next token (never moves past `Eof`).
    pub fn bump(&mut self) -> Token {
        let t = self.peek().clone();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        t
    }

    /// "expected `what`, found <next token>" at the next token.
    pub fn expected(&self, what: &str) -> ParseError {
        let t = self.peek();
        error_at(t, format!("expected {what}, found {}", t.tok.describe()))
    }

    /// True if the next token is on the line of the previous one.
    pub fn same_line(&self) -> bool {
        !self.peek().first_on_line
    }

    /// Consumes `tok` if it is next.
    pub fn eat(&mut self, tok: &Tok) -> bool {
        if &self.peek().tok == tok {
            self.bump();
            true
        } else {
            false
        }
    }

    /// Consumes `tok` or fails naming `what`.
    pub fn expect(&mut self, tok: &Tok, what: &str) -> Result<Token, ParseError> {
        if &self.peek().tok == tok {
            Ok(self.bump())
        } else {
            Err(self.expected(what))
        }
    }

    /// True if the next token is the word `w`.
    pub fn at_word(&self, w: &str) -> bool {
        matches!(&self.peek().tok, Tok::Word(x) if x == w)
    }

    /// Consumes the word `w` if it is next on this line.
    pub fn eat_word(&mut self, w: &str) -> bool {
        if self.at_word(w) && self.same_line() {
            self.bump();
            true
        } else {
            false
        }
    }

    /// Consumes the keyword `w` or fails.
    pub fn expect_word(&mut self, w: &str) -> Result<(), ParseError> {
        if self.at_word(w) {
            self.bump();
            Ok(())
        } else {
            Err(self.expected(&format!("`{w}`")))
        }
    }

    /// A keyword read by `from_name`; `what` names the category in errors.
    pub fn keyword<T>(
        &mut self,
        what: &str,
        from_name: fn(&str) -> Option<T>,
    ) -> Result<T, ParseError> {
        let t = self.peek().clone();
        match &t.tok {
            Tok::Word(w) => match from_name(w) {
                Some(v) => {
                    self.bump();
                    Ok(v)
                }
                None => Err(error_at(&t, format!("unknown {what} `{w}`"))),
            },
            _ => Err(self.expected(what)),
        }
    }

    /// An unsigned integer word.
    pub fn uint<T: std::str::FromStr>(&mut self, what: &str) -> Result<T, ParseError> {
        let t = self.peek().clone();
        if let Tok::Word(w) = &t.tok {
            if is_numeric(w) {
                return match w.parse() {
                    Ok(v) => {
                        self.bump();
                        Ok(v)
                    }
                    Err(_) => Err(error_at(&t, format!("{what} `{w}` is out of range"))),
                };
            }
        }
        Err(self.expected(what))
    }

    /// A quoted string.
    pub fn string(&mut self, what: &str) -> Result<String, ParseError> {
        match &self.peek().tok {
            Tok::Str(s) => {
                let s = s.clone();
                self.bump();
                Ok(s)
            }
            _ => Err(self.expected(what)),
        }
    }

    /// Fails unless the next token starts a new line (or closes a region).
    pub fn end_of_line(&self, after: &str) -> Result<(), ParseError> {
        let t = self.peek();
        if t.first_on_line || t.tok == Tok::RBrace {
            Ok(())
        } else {
            Err(self.expected(&format!("end of line after {after}")))
        }
    }

    /// An optional ` loc(file:line:col)` on the current line.
    pub fn opt_loc(&mut self) -> Result<Loc, ParseError> {
        if !self.eat_word("loc") {
            return Ok(Loc::UNKNOWN);
        }
        self.expect(&Tok::LParen, "`(` after `loc`")?;
        let file = self.uint("a file index")?;
        self.expect(&Tok::Colon, "`:` in `loc(file:line:col)`")?;
        let line = self.uint("a line number")?;
        self.expect(&Tok::Colon, "`:` in `loc(file:line:col)`")?;
        let col = self.uint("a column number")?;
        self.expect(&Tok::RParen, "`)` closing `loc(`")?;
        Ok(Loc::new(file, line, col))
    }

    // ---- types --------------------------------------------------------------

    /// A type reference: `iN`, `f32`, `ptr<space>`, `[N x T]`, `$Name`.
    pub fn ty(&mut self) -> Result<TypeId, ParseError> {
        self.ty_depth(0)
    }

    fn ty_depth(&mut self, depth: u32) -> Result<TypeId, ParseError> {
        let t = self.peek().clone();
        if depth > MAX_DEPTH {
            return Err(error_at(&t, "types are nested too deeply".into()));
        }
        let ty = match &t.tok {
            Tok::Word(w) => {
                let float = match w.as_str() {
                    "f16" => Some(FloatKind::F16),
                    "bf16" => Some(FloatKind::BF16),
                    "f32" => Some(FloatKind::F32),
                    "f64" => Some(FloatKind::F64),
                    _ => None,
                };
                if let Some(k) = float {
                    self.bump();
                    Type::Float(k)
                } else if w == "ptr" {
                    self.bump();
                    self.expect(&Tok::Lt, "`<` after `ptr`")?;
                    let space = self.keyword("memory space", Space::from_name)?;
                    self.expect(&Tok::Gt, "`>` closing `ptr<`")?;
                    Type::Ptr(space)
                } else if let Some(bits) = w.strip_prefix('i').filter(|b| is_numeric(b)) {
                    let bits: u8 = bits.parse().map_err(|_| {
                        error_at(&t, format!("integer type `{w}` is too wide (at most i255)"))
                    })?;
                    self.bump();
                    Type::Int(bits)
                } else {
                    return Err(self.expected("a type"));
                }
            }
            Tok::LBracket => {
                self.bump();
                let len = self.uint("an array length")?;
                self.expect_word("x")?;
                let elem = self.ty_depth(depth + 1)?;
                self.expect(&Tok::RBracket, "`]` closing the array type")?;
                Type::Array { elem, len }
            }
            Tok::TypeName(name) => {
                let id =
                    self.types.get(name).copied().ok_or_else(|| {
                        error_at(&t, format!("undefined type {}", t.tok.describe()))
                    })?;
                self.bump();
                return Ok(id);
            }
            _ => return Err(self.expected("a type")),
        };
        Ok(self.module.types.insert(ty))
    }

    /// `T, T, ...` (at least one).
    pub fn type_list(&mut self) -> Result<Vec<TypeId>, ParseError> {
        let mut out = vec![self.ty()?];
        while self.eat(&Tok::Comma) {
            out.push(self.ty()?);
        }
        Ok(out)
    }

    /// `(T, ...)`, possibly empty.
    pub fn paren_types(&mut self) -> Result<Vec<TypeId>, ParseError> {
        self.expect(&Tok::LParen, "`(` opening a type list")?;
        if self.eat(&Tok::RParen) {
            return Ok(Vec::new());
        }
        let out = self.type_list()?;
        self.expect(&Tok::RParen, "`,` or `)` in the type list")?;
        Ok(out)
    }

    /// An optional `-> (T, ...)`.
    pub fn opt_arrow_types(&mut self) -> Result<Vec<TypeId>, ParseError> {
        if self.eat(&Tok::Arrow) {
            self.paren_types()
        } else {
            Ok(Vec::new())
        }
    }

    // ---- symbols ------------------------------------------------------------

    /// `@name` of a defined global.
    pub fn global_ref(&mut self) -> Result<GlobalId, ParseError> {
        let t = self.peek().clone();
        let Tok::Symbol(name) = &t.tok else {
            return Err(self.expected("a global name `@...`"));
        };
        let id = self
            .globals
            .get(name)
            .copied()
            .ok_or_else(|| error_at(&t, format!("undefined global {}", t.tok.describe())))?;
        self.bump();
        Ok(id)
    }

    /// Records a call of `@name` (token `t`) by `op`, resolved at the end.
    pub fn defer_call(&mut self, fs: &FnState, op: Op, name: String, t: &Token) {
        self.calls.push(PendingCall {
            func: fs.id,
            op,
            name,
            line: t.line,
            col: t.col,
        });
    }

    fn resolve_calls(&mut self) -> Result<(), ParseError> {
        for c in std::mem::take(&mut self.calls) {
            let Some(&target) = self.funcs.get(&c.name) else {
                return Err(ParseError {
                    line: c.line,
                    col: c.col,
                    message: format!(
                        "undefined function {}",
                        super::literal::symbol('@', &c.name)
                    ),
                });
            };
            if let Some(f) = self.module.functions.try_get(c.func) {
                if f.ops.contains(c.op) {
                    self.module.functions[c.func].ops[c.op].kind =
                        OpKind::Call(Callee::Func(target));
                }
            }
        }
        Ok(())
    }

    // ---- top-level items ----------------------------------------------------

    fn items(&mut self) -> Result<(), ParseError> {
        loop {
            let t = self.peek().clone();
            match &t.tok {
                Tok::Eof => return Ok(()),
                Tok::Word(w) if w == "file" => {
                    self.bump();
                    let name = self.string("a file name string")?;
                    self.module.files.push(name);
                }
                Tok::Word(w) if w == "type" => self.struct_def()?,
                Tok::Word(w) if w == "global" || w == "texture" => self.global_def()?,
                Tok::Word(w) if FunctionKind::from_name(w).is_some() => {
                    self.function(Linkage::Internal)?
                }
                Tok::Word(w) if w == "external" || w == "import" => {
                    let linkage = if w == "external" {
                        Linkage::External
                    } else {
                        Linkage::Import
                    };
                    self.bump();
                    self.function(linkage)?
                }
                _ => {
                    return Err(self.expected(
                        "`file`, `type`, `global`, `texture`, `external`, `import`, `kernel`, `device` or `launch`",
                    ))
                }
            }
            self.end_of_line("the definition")?;
        }
    }

    /// `type $Name = struct size S align A { name: T at OFFSET, ... }`
    fn struct_def(&mut self) -> Result<(), ParseError> {
        self.bump();
        let t = self.peek().clone();
        let Tok::TypeName(name) = &t.tok else {
            return Err(self.expected("a type name `$...`"));
        };
        if self.types.contains_key(name) {
            return Err(error_at(
                &t,
                format!("duplicate definition of type {}", t.tok.describe()),
            ));
        }
        self.bump();
        self.expect(&Tok::Equals, "`=` after the type name")?;
        self.expect_word("struct")?;
        self.expect_word("size")?;
        let size = self.uint("a size in bytes")?;
        self.expect_word("align")?;
        let align = self.uint("an alignment in bytes")?;
        self.expect(&Tok::LBrace, "`{` opening the field list")?;
        let mut fields = Vec::new();
        if !self.eat(&Tok::RBrace) {
            loop {
                let fname = match &self.peek().tok {
                    Tok::Word(w) => w.clone(),
                    Tok::Str(s) => s.clone(),
                    _ => return Err(self.expected("a field name")),
                };
                self.bump();
                self.expect(&Tok::Colon, "`:` after the field name")?;
                let ty = self.ty()?;
                self.expect_word("at")?;
                let offset = self.uint("a field offset")?;
                fields.push(Field {
                    name: fname,
                    ty,
                    offset,
                });
                if self.eat(&Tok::RBrace) {
                    break;
                }
                self.expect(&Tok::Comma, "`,` or `}` in the field list")?;
            }
        }
        let id = self.module.types.insert(Type::Struct(StructType {
            name: name.clone(),
            fields,
            size,
            align,
        }));
        self.types.insert(name.clone(), id);
        Ok(())
    }

    /// `global @g : T space [managed] [= bytes "hex"] [loc]` or
    /// `texture @t : T space dims N [= bytes "hex"] [loc]`.
    fn global_def(&mut self) -> Result<(), ParseError> {
        let texture = self.at_word("texture");
        self.bump();
        let t = self.peek().clone();
        let Tok::Symbol(name) = &t.tok else {
            return Err(self.expected("a global name `@...`"));
        };
        if self.globals.contains_key(name) {
            return Err(error_at(
                &t,
                format!("duplicate definition of global {}", t.tok.describe()),
            ));
        }
        self.bump();
        self.expect(&Tok::Colon, "`:` after the global name")?;
        let ty = self.ty()?;
        let space = self.keyword("memory space", Space::from_name)?;
        let kind = if texture {
            self.expect_word("dims")?;
            GlobalKind::Texture {
                dims: self.uint("a texture dimension count")?,
            }
        } else {
            GlobalKind::Variable
        };
        let managed = !texture && self.same_line() && self.at_word("managed");
        if managed {
            self.bump();
        }
        let linkage = if self.same_line() && self.at_word("external") {
            self.bump();
            Linkage::External
        } else if self.same_line() && self.at_word("import") {
            self.bump();
            Linkage::Import
        } else {
            Linkage::Internal
        };
        let init = if self.same_line() && self.eat(&Tok::Equals) {
            self.expect_word("bytes")?;
            let st = self.peek().clone();
            let hex = self.string("a hex byte string")?;
            Some(parse_hex_bytes(&hex).map_err(|m| error_at(&st, m))?)
        } else {
            None
        };
        let loc = self.opt_loc()?;
        let id = self.module.add_global(Global {
            name: name.clone(),
            ty,
            space,
            init,
            kind,
            managed,
            linkage,
            loc,
        });
        self.globals.insert(name.clone(), id);
        Ok(())
    }

    /// `kind @name(%p: T attrs, ...) [-> (T, ...)] [loc] { ops }`
    fn function(&mut self, linkage: Linkage) -> Result<(), ParseError> {
        let kind = self.keyword("function kind", FunctionKind::from_name)?;
        let t = self.peek().clone();
        let Tok::Symbol(name) = &t.tok else {
            return Err(self.expected("a function name `@...`"));
        };
        if self.funcs.contains_key(name) {
            return Err(error_at(
                &t,
                format!("duplicate definition of function {}", t.tok.describe()),
            ));
        }
        self.bump();
        self.expect(&Tok::LParen, "`(` opening the parameter list")?;
        let mut names = Vec::new();
        let mut types = Vec::new();
        let mut attrs = Vec::new();
        if !self.eat(&Tok::RParen) {
            loop {
                let pt = self.peek().clone();
                if !matches!(pt.tok, Tok::Value { .. }) {
                    return Err(self.expected("a parameter name `%...`"));
                }
                self.bump();
                self.expect(&Tok::Colon, "`:` after the parameter name")?;
                types.push(self.ty()?);
                let mut a = ParamAttrs::default();
                loop {
                    if self.at_word("noalias") {
                        self.bump();
                        a.noalias = true;
                    } else if self.at_word("byval") {
                        self.bump();
                        self.expect(&Tok::LParen, "`(` after `byval`")?;
                        a.byval = Some(self.ty()?);
                        self.expect(&Tok::RParen, "`)` closing `byval(`")?;
                    } else {
                        break;
                    }
                }
                names.push(pt);
                attrs.push(a);
                if self.eat(&Tok::RParen) {
                    break;
                }
                self.expect(&Tok::Comma, "`,` or `)` in the parameter list")?;
            }
        }
        let results = self.opt_arrow_types()?;
        let loc = self.opt_loc()?;
        let mut func = Function::new(name, kind, &types, &results);
        func.params = attrs;
        func.loc = loc;
        func.linkage = linkage;
        let id = FuncId::new(self.module.functions.len());
        self.funcs.insert(name.clone(), id);
        let mut fs = FnState {
            func,
            id,
            values: HashMap::new(),
        };
        let params = fs.func.param_values().to_vec();
        for (tok, v) in names.iter().zip(params) {
            fs.define(tok, v)?;
        }
        let body = fs.func.body;
        // An imported function is a declaration: no body.
        if linkage != Linkage::Import {
            self.region(&mut fs, body, 0)?;
        }
        self.module.add_function(fs.func);
        Ok(())
    }

    /// `{ ops }` into `region`.
    pub fn region(
        &mut self,
        fs: &mut FnState,
        region: Region,
        depth: u32,
    ) -> Result<(), ParseError> {
        let open = self.peek().clone();
        if depth > MAX_DEPTH {
            return Err(error_at(
                &open,
                format!("regions are nested too deeply (more than {MAX_DEPTH} levels)"),
            ));
        }
        self.expect(&Tok::LBrace, "`{` opening a region")?;
        loop {
            match self.peek().tok {
                Tok::RBrace => {
                    self.bump();
                    return Ok(());
                }
                Tok::Eof => {
                    return Err(self.expected(&format!(
                        "`}}` closing the region opened at {}:{}",
                        open.line, open.col
                    )))
                }
                _ => self.op(fs, region, depth)?,
            }
        }
    }

    /// A value use `%x`.
    pub fn value_use(&mut self, fs: &FnState) -> Result<Value, ParseError> {
        let t = self.peek().clone();
        let v = fs.lookup(&t)?;
        self.bump();
        Ok(v)
    }

    /// A value-name token for a new definition.
    pub fn value_def(&mut self) -> Result<Token, ParseError> {
        if matches!(self.peek().tok, Tok::Value { .. }) {
            Ok(self.bump())
        } else {
            Err(self.expected("a value name `%...`"))
        }
    }
}
