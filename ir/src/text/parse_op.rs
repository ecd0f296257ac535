//! Reads one op: `%r, ... = mnemonic attrs operands [regions] : types loc(...)`.
//!
//! Plain ops list their attributes, then their operands, then their result
//! types after `:`. Structured ops (`if`, `for`, `while`, `parallel`) name
//! their region arguments in a header and give result types as `-> (...)`.

use super::lexer::{Tok, Token};
use super::literal::parse_const;
use super::parse::{error_at, FnState, Parser};
use super::ParseError;
use crate::func::{Region, Value};
use crate::ops::*;
use crate::types::{Space, TypeId};

/// What an op's text says, before the op is created.
struct OpParts {
    kind: OpKind,
    operands: Vec<Value>,
    result_types: Vec<TypeId>,
    regions: Vec<Region>,
    /// For calls of module functions: the callee name and its token.
    callee: Option<(String, Token)>,
}

impl OpParts {
    fn plain(kind: OpKind, operands: Vec<Value>, result_types: Vec<TypeId>) -> Self {
        OpParts {
            kind,
            operands,
            result_types,
            regions: Vec::new(),
            callee: None,
        }
    }
}

/// The op table names `code` with a syntax this parser has no hook for:
/// an inconsistency in the IR crate, reported rather than panicking on.
fn no_hook(at: &Token, code: OpCode, what: &str) -> ParseError {
    error_at(
        at,
        format!(
            "internal error: no parser for {what} of `{}` (OpKind::{})",
            code.mnemonics().join("`/`"),
            code.variant_name()
        ),
    )
}

fn barrier_scope(s: &str) -> Option<BarrierScope> {
    match s {
        "block" => Some(BarrierScope::Block),
        "warp" => Some(BarrierScope::Warp),
        _ => None,
    }
}

impl Parser {
    /// One op, appended to `region`.
    pub(super) fn op(
        &mut self,
        fs: &mut FnState,
        region: Region,
        depth: u32,
    ) -> Result<(), ParseError> {
        let mut names = Vec::new();
        if matches!(self.peek().tok, Tok::Value { .. }) {
            loop {
                names.push(self.value_def()?);
                if !self.eat(&Tok::Comma) {
                    break;
                }
            }
            self.expect(&Tok::Equals, "`=` or `,` after the result names")?;
        }
        let mn_tok = self.peek().clone();
        let Tok::Word(mnemonic) = &mn_tok.tok else {
            return Err(self.expected("an op"));
        };
        self.bump();
        let parts = self.op_parts(fs, mnemonic, &mn_tok, depth)?;
        let loc = self.opt_loc()?;
        if names.len() != parts.result_types.len() {
            return Err(error_at(
                &mn_tok,
                format!(
                    "`{mnemonic}` has {} result name(s) but {} result type(s)",
                    names.len(),
                    parts.result_types.len()
                ),
            ));
        }
        let op = fs.func.new_op(
            parts.kind,
            parts.operands,
            &parts.result_types,
            parts.regions,
            loc,
        );
        fs.func.regions[region].ops.push(op);
        let results = fs.func.ops[op].results.clone();
        for (tok, v) in names.iter().zip(results) {
            fs.define(tok, v)?;
        }
        if let Some((name, tok)) = parts.callee {
            self.defer_call(fs, op, name, &tok);
        }
        self.end_of_line(&format!("`{mnemonic}`"))
    }

    /// Operands on the current line: `%a, %b, ...` (possibly none).
    fn operands(&mut self, fs: &FnState) -> Result<Vec<Value>, ParseError> {
        let mut out = Vec::new();
        if matches!(self.peek().tok, Tok::Value { .. }) && self.same_line() {
            loop {
                out.push(self.value_use(fs)?);
                if !(self.same_line() && self.eat(&Tok::Comma)) {
                    break;
                }
            }
        }
        Ok(out)
    }

    /// Result types on the current line: `: T, ...` (possibly absent).
    fn result_types(&mut self) -> Result<Vec<TypeId>, ParseError> {
        if self.same_line() && self.eat(&Tok::Colon) {
            self.type_list()
        } else {
            Ok(Vec::new())
        }
    }

    /// `name[: T]`: a region argument, typed `like` unless written.
    fn region_arg(&mut self, like: Option<TypeId>) -> Result<(Token, TypeId), ParseError> {
        let tok = self.value_def()?;
        if self.eat(&Tok::Colon) {
            return Ok((tok, self.ty()?));
        }
        match like {
            Some(t) => Ok((tok, t)),
            None => Err(self.expected(&format!(
                "`:` and a type for {} (nothing gives its type)",
                tok.tok.describe()
            ))),
        }
    }

    /// A value definition with an optional `: T`.
    fn typed_def(&mut self) -> Result<(Token, Option<TypeId>), ParseError> {
        let tok = self.value_def()?;
        let ty = if self.eat(&Tok::Colon) {
            Some(self.ty()?)
        } else {
            None
        };
        Ok((tok, ty))
    }

    /// `%a[: T] = %init, ...)` after its `(`: each carried value's initial
    /// value goes to `inits` and its argument (typed as the initial value
    /// unless written) to `args`; `sep` names the list in errors.
    fn carried(
        &mut self,
        fs: &FnState,
        inits: &mut Vec<Value>,
        args: &mut Vec<(Token, TypeId)>,
        sep: &str,
    ) -> Result<(), ParseError> {
        loop {
            let (tok, ty) = self.typed_def()?;
            self.expect(&Tok::Equals, "`=` and an initial value")?;
            let init = self.value_use(fs)?;
            inits.push(init);
            args.push((tok, ty.unwrap_or(fs.func.values[init].ty)));
            if self.eat(&Tok::RParen) {
                return Ok(());
            }
            self.expect(&Tok::Comma, sep)?;
        }
    }

    /// A new region with arguments named by `args`, then its `{ ops }`.
    fn named_region(
        &mut self,
        fs: &mut FnState,
        args: &[(Token, TypeId)],
        depth: u32,
    ) -> Result<Region, ParseError> {
        let types: Vec<TypeId> = args.iter().map(|(_, t)| *t).collect();
        let r = fs.func.new_region(&types);
        let values = fs.func.regions[r].args.clone();
        for ((tok, _), v) in args.iter().zip(values) {
            fs.define(tok, v)?;
        }
        self.region(fs, r, depth + 1)?;
        Ok(r)
    }

    /// The op after its mnemonic: the op table says which parts are plain
    /// (operands, result types) and which a per-op hook reads.
    fn op_parts(
        &mut self,
        fs: &mut FnState,
        mnemonic: &str,
        mn_tok: &Token,
        depth: u32,
    ) -> Result<OpParts, ParseError> {
        let Some(head) = OpKind::from_mnemonic(mnemonic) else {
            return Err(error_at(mn_tok, format!("unknown op `{mnemonic}`")));
        };
        let kind = match (head.code().syntax(), head) {
            (OpSyntax::Plain, OpHead::Kind(kind)) => kind,
            (OpSyntax::Attrs, head) => self.attrs(head, mn_tok)?,
            (OpSyntax::Custom | OpSyntax::Structured, head) => {
                return self.custom(head.code(), fs, mn_tok, depth)
            }
            (OpSyntax::Plain, OpHead::Code(code)) => {
                return Err(no_hook(mn_tok, code, "a kind without attributes"))
            }
        };
        let operands = self.operands(fs)?;
        let result_types = self.result_types()?;
        Ok(OpParts::plain(kind, operands, result_types))
    }

    /// The attributes of an op of [`OpSyntax::Attrs`], between its mnemonic
    /// and its operands.
    fn attrs(&mut self, head: OpHead, mn_tok: &Token) -> Result<OpKind, ParseError> {
        let code = match head {
            OpHead::Kind(OpKind::Binary(op, _)) => {
                // The verifier rejects `nsw` where it does not apply.
                let nsw = self.eat_word("nsw");
                return Ok(OpKind::Binary(op, ArithFlags { nsw }));
            }
            OpHead::Kind(kind) => return Err(no_hook(mn_tok, kind.code(), "attributes")),
            OpHead::Code(code) => code,
        };
        Ok(match code {
            OpCode::Cmp => OpKind::Cmp(self.keyword("comparison predicate", CmpPred::from_name)?),
            OpCode::Alloca => {
                let space = self.keyword("memory space", Space::from_name)?;
                let ty = self.ty()?;
                OpKind::Alloca { space, ty }
            }
            OpCode::Load => OpKind::Load {
                volatile: self.eat_word("volatile"),
                speculative: self.eat_word("speculative"),
            },
            OpCode::Store => OpKind::Store {
                volatile: self.eat_word("volatile"),
            },
            OpCode::PtrIndex => OpKind::PtrIndex { elem: self.ty()? },
            OpCode::PtrField => {
                let ty = self.ty()?;
                self.expect(&Tok::LBracket, "`[` before the field index")?;
                let field = self.uint("a field index")?;
                self.expect(&Tok::RBracket, "`]` after the field index")?;
                OpKind::PtrField { ty, field }
            }
            OpCode::GlobalAddr => OpKind::GlobalAddr(self.global_ref()?),
            OpCode::TexRef => OpKind::TexRef(self.global_ref()?),
            OpCode::AtomicRmw => {
                let op = self.keyword("atomic operation", AtomicOp::from_name)?;
                let scope = self.keyword("memory scope", MemScope::from_name)?;
                OpKind::AtomicRmw { op, scope }
            }
            OpCode::AtomicCas => OpKind::AtomicCas {
                scope: self.keyword("memory scope", MemScope::from_name)?,
            },
            OpCode::Fence => OpKind::Fence {
                scope: self.keyword("memory scope", MemScope::from_name)?,
            },
            OpCode::ThreadId => OpKind::ThreadId(self.keyword("dimension", Dim::from_name)?),
            OpCode::BlockId => OpKind::BlockId(self.keyword("dimension", Dim::from_name)?),
            OpCode::BlockDim => OpKind::BlockDim(self.keyword("dimension", Dim::from_name)?),
            OpCode::GridDim => OpKind::GridDim(self.keyword("dimension", Dim::from_name)?),
            OpCode::Barrier => OpKind::Barrier(self.keyword("barrier scope", barrier_scope)?),
            OpCode::BarrierReduce => OpKind::BarrierReduce(
                self.keyword("barrier reduction", BarrierReduceKind::from_name)?,
            ),
            OpCode::Shuffle => {
                OpKind::Shuffle(self.keyword("shuffle mode", ShuffleMode::from_name)?)
            }
            OpCode::Vote => OpKind::Vote(self.keyword("vote kind", VoteKind::from_name)?),
            OpCode::TexFetch => {
                OpKind::TexFetch(self.keyword("texture fetch kind", TexKind::from_name)?)
            }
            OpCode::Trap => {
                let assert = self.eat_word("assert");
                OpKind::Trap {
                    message: self.string("a message string")?,
                    assert,
                }
            }
            other => return Err(no_hook(mn_tok, other, "attributes")),
        })
    }

    /// An op of [`OpSyntax::Custom`] or [`OpSyntax::Structured`], after its
    /// mnemonic.
    fn custom(
        &mut self,
        code: OpCode,
        fs: &mut FnState,
        mn_tok: &Token,
        depth: u32,
    ) -> Result<OpParts, ParseError> {
        match code {
            OpCode::Const => self.const_op(),
            OpCode::Call => self.call_op(fs),
            OpCode::Printf => self.printf_op(fs),
            OpCode::If => self.if_op(fs, depth),
            OpCode::For => self.for_op(fs, depth),
            OpCode::While => self.while_op(fs, depth),
            OpCode::Parallel => self.parallel_op(fs, depth),
            other => Err(no_hook(mn_tok, other, "its text")),
        }
    }

    /// `const literal : T`: the literal is read in the light of `T`.
    fn const_op(&mut self) -> Result<OpParts, ParseError> {
        let lit = self.peek().clone();
        let Tok::Word(text) = &lit.tok else {
            return Err(self.expected("a constant literal"));
        };
        self.bump();
        let result_types = self.result_types()?;
        let bits = parse_const(&self.module.types, result_types.first().copied(), text)
            .map_err(|m| error_at(&lit, m))?;
        Ok(OpParts::plain(
            OpKind::Const { bits },
            Vec::new(),
            result_types,
        ))
    }

    /// `printf "format"[, %args...]`.
    fn printf_op(&mut self, fs: &FnState) -> Result<OpParts, ParseError> {
        let format = self.string("a format string")?;
        let operands = if self.same_line() && self.eat(&Tok::Comma) {
            let ops = self.operands(fs)?;
            if ops.is_empty() {
                return Err(self.expected("a value after `,`"));
            }
            ops
        } else {
            Vec::new()
        };
        let result_types = self.result_types()?;
        Ok(OpParts::plain(
            OpKind::Printf { format },
            operands,
            result_types,
        ))
    }

    /// `call @f(args) : T...` or `call extern @name(args) : T...`.
    fn call_op(&mut self, fs: &FnState) -> Result<OpParts, ParseError> {
        let external = self.eat_word("extern");
        let t = self.peek().clone();
        let Tok::Symbol(name) = &t.tok else {
            return Err(self.expected("a function name `@...`"));
        };
        self.bump();
        self.expect(&Tok::LParen, "`(` opening the call arguments")?;
        let mut args = Vec::new();
        if !self.eat(&Tok::RParen) {
            loop {
                args.push(self.value_use(fs)?);
                if self.eat(&Tok::RParen) {
                    break;
                }
                self.expect(&Tok::Comma, "`,` or `)` in the call arguments")?;
            }
        }
        let result_types = self.result_types()?;
        if external {
            return Ok(OpParts::plain(
                OpKind::Call(Callee::Extern(name.clone())),
                args,
                result_types,
            ));
        }
        // The callee is resolved once every function is known.
        let mut parts = OpParts::plain(
            OpKind::Call(Callee::Func(crate::module::FuncId::new(0))),
            args,
            result_types,
        );
        parts.callee = Some((name.clone(), t));
        Ok(parts)
    }

    /// `if %c [-> (T...)] { ... } [else { ... }]`.
    fn if_op(&mut self, fs: &mut FnState, depth: u32) -> Result<OpParts, ParseError> {
        let cond = self.value_use(fs)?;
        let result_types = self.opt_arrow_types()?;
        let then_r = self.named_region(fs, &[], depth)?;
        let else_r = if self.same_line() && self.at_word("else") {
            self.bump();
            self.named_region(fs, &[], depth)?
        } else if result_types.is_empty() {
            // An omitted else of a result-less `if` is an empty one.
            let r = fs.func.new_region(&[]);
            let y = fs.func.new_op(
                OpKind::Yield,
                Vec::new(),
                &[],
                Vec::new(),
                crate::loc::Loc::UNKNOWN,
            );
            fs.func.regions[r].ops.push(y);
            r
        } else {
            return Err(self.expected("`else` (an `if` with results needs both regions)"));
        };
        Ok(OpParts {
            kind: OpKind::If,
            operands: vec![cond],
            result_types,
            regions: vec![then_r, else_r],
            callee: None,
        })
    }

    /// `for [unsigned] %i[: T] = %lb to %ub step %s [iter(%a[: T] = %init, ...)]
    /// [-> (T...)] { ... }`.
    fn for_op(&mut self, fs: &mut FnState, depth: u32) -> Result<OpParts, ParseError> {
        let unsigned = self.eat_word("unsigned");
        let (iv_tok, iv_ty) = self.typed_def()?;
        self.expect(&Tok::Equals, "`=` after the induction variable")?;
        let lb = self.value_use(fs)?;
        self.expect_word("to")?;
        let ub = self.value_use(fs)?;
        self.expect_word("step")?;
        let step = self.value_use(fs)?;
        let mut operands = vec![lb, ub, step];
        let mut args = vec![(iv_tok, iv_ty.unwrap_or(fs.func.values[lb].ty))];
        if self.same_line() && self.at_word("iter") {
            self.bump();
            self.expect(&Tok::LParen, "`(` after `iter`")?;
            self.carried(fs, &mut operands, &mut args, "`,` or `)` in `iter(...)`")?;
        }
        let result_types = self.opt_arrow_types()?;
        let body = self.named_region(fs, &args, depth)?;
        Ok(OpParts {
            kind: OpKind::For { unsigned },
            operands,
            result_types,
            regions: vec![body],
            callee: None,
        })
    }

    /// `while (%a[: T] = %init, ...) [-> (T...)] { ... } do (%b: T, ...) { ... }`.
    fn while_op(&mut self, fs: &mut FnState, depth: u32) -> Result<OpParts, ParseError> {
        self.expect(&Tok::LParen, "`(` opening the `while` arguments")?;
        let mut operands = Vec::new();
        let mut before_args = Vec::new();
        if !self.eat(&Tok::RParen) {
            self.carried(
                fs,
                &mut operands,
                &mut before_args,
                "`,` or `)` in the `while` arguments",
            )?;
        }
        let result_types = self.opt_arrow_types()?;
        let before = self.named_region(fs, &before_args, depth)?;
        self.expect_word("do")?;
        self.expect(&Tok::LParen, "`(` opening the `do` arguments")?;
        let mut after_args = Vec::new();
        if !self.eat(&Tok::RParen) {
            loop {
                after_args.push(self.region_arg(None)?);
                if self.eat(&Tok::RParen) {
                    break;
                }
                self.expect(&Tok::Comma, "`,` or `)` in the `do` arguments")?;
            }
        }
        let after = self.named_region(fs, &after_args, depth)?;
        Ok(OpParts {
            kind: OpKind::While,
            operands,
            result_types,
            regions: vec![before, after],
            callee: None,
        })
    }

    /// `parallel<level> (%i[: T], ...) in (%ub, ...) [-> (T...)] { ... }`.
    fn parallel_op(&mut self, fs: &mut FnState, depth: u32) -> Result<OpParts, ParseError> {
        self.expect(&Tok::Lt, "`<` and a parallel level after `parallel`")?;
        let level = self.keyword("parallel level", Level::from_name)?;
        self.expect(&Tok::Gt, "`>` after the parallel level")?;
        self.expect(&Tok::LParen, "`(` opening the induction variables")?;
        let mut ivs = Vec::new();
        if !self.eat(&Tok::RParen) {
            loop {
                let (tok, ty) = self.typed_def()?;
                ivs.push((tok, ty));
                if self.eat(&Tok::RParen) {
                    break;
                }
                self.expect(&Tok::Comma, "`,` or `)` in the induction variables")?;
            }
        }
        self.expect_word("in")?;
        self.expect(&Tok::LParen, "`(` opening the upper bounds")?;
        let mut operands = Vec::new();
        if !self.eat(&Tok::RParen) {
            loop {
                operands.push(self.value_use(fs)?);
                if self.eat(&Tok::RParen) {
                    break;
                }
                self.expect(&Tok::Comma, "`,` or `)` in the upper bounds")?;
            }
        }
        let mut args = Vec::new();
        for (k, (tok, ty)) in ivs.into_iter().enumerate() {
            let ty = match ty.or_else(|| operands.get(k).map(|&v| fs.func.values[v].ty)) {
                Some(t) => t,
                None => {
                    return Err(error_at(
                        &tok,
                        format!(
                            "induction variable {} has no upper bound and no `: type`",
                            tok.tok.describe()
                        ),
                    ))
                }
            };
            args.push((tok, ty));
        }
        let result_types = self.opt_arrow_types()?;
        let body = self.named_region(fs, &args, depth)?;
        Ok(OpParts {
            kind: OpKind::Parallel { level },
            operands,
            result_types,
            regions: vec![body],
            callee: None,
        })
    }
}
