//! A small assembler for the syntax [`print`](super::print) writes, so tests
//! and users can write Snitch programs as text: one instruction per line,
//! `label:` definitions, `#` and `//` comments, branch and `jal` targets as
//! labels or byte offsets, constant expressions in immediates, the common
//! pseudo-instructions (`li`, `mv`, `j`, `ret`, `beqz`, `bnez`, `fmv.d`,
//! `csrsi`, ...) and layout directives that have no effect on a flat code
//! sequence (`.text`, `.globl`, `.p2align`, ...). Every error names the
//! line and what was wrong with it.

use std::collections::BTreeMap;

use super::mnemonics::parse_line;
use crate::isa::*;

/// An assembled program: instructions from offset 0 and the label table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Program {
    /// The instructions, 4 bytes each.
    pub insts: Vec<Inst>,
    /// Label name → index of the instruction it precedes.
    pub labels: BTreeMap<String, usize>,
}

impl Program {
    /// The program's machine words.
    pub fn encode(&self) -> Result<Vec<u32>, EncodeError> {
        self.insts.iter().map(encode).collect()
    }

    /// The byte offset of a label.
    pub fn label_offset(&self, name: &str) -> Option<u32> {
        self.labels.get(name).map(|i| (*i as u32) * 4)
    }
}

/// An assembly error at a source line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}\n  | {text}")]
pub struct AsmError {
    /// 1-based line number.
    pub line: usize,
    /// The line's text.
    pub text: String,
    /// What was wrong.
    pub kind: AsmErrorKind,
}

/// What was wrong with a line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AsmErrorKind {
    /// The mnemonic is not an instruction or pseudo-instruction of the subset.
    #[error("unknown instruction `{0}`")]
    UnknownMnemonic(String),
    /// The directive is not one the assembler understands.
    #[error("unknown directive `{0}`")]
    UnknownDirective(String),
    /// Wrong number of operands.
    #[error("`{mnemonic}` takes {expected} operands, found {found}")]
    OperandCount {
        /// The mnemonic.
        mnemonic: String,
        /// What it takes (e.g. "3" or "2 or 3").
        expected: &'static str,
        /// How many were given.
        found: usize,
    },
    /// An operand could not be read as what the instruction needs there.
    #[error("operand {index} `{operand}`: {problem}")]
    BadOperand {
        /// 1-based operand position.
        index: usize,
        /// The operand text.
        operand: String,
        /// What was expected or wrong.
        problem: String,
    },
    /// A label is defined twice.
    #[error("label `{0}` is already defined")]
    DuplicateLabel(String),
    /// A branch or jump names a label that is not defined.
    #[error("label `{0}` is not defined")]
    UnknownLabel(String),
    /// The instruction is well formed but an operand does not fit its field.
    #[error("{0}")]
    Encode(#[from] EncodeError),
}

/// Directives accepted and ignored: they only matter to a linker or to
/// sections, and a program here is one flat code sequence.
const IGNORED_DIRECTIVES: &[&str] = &[
    ".text",
    ".globl",
    ".global",
    ".p2align",
    ".align",
    ".balign",
    ".type",
    ".size",
    ".section",
    ".option",
    ".file",
    ".ident",
    ".attribute",
];

/// A branch/jump target before label resolution.
#[derive(Clone, Debug)]
pub(super) enum Target {
    Offset(i32),
    Label(String),
}

/// One instruction with, for branches and `jal`, its unresolved target.
struct Pending {
    inst: Inst,
    target: Option<Target>,
    line: usize,
}

/// Assembles `text`.
pub fn assemble(text: &str) -> Result<Program, AsmError> {
    let mut pending: Vec<Pending> = Vec::new();
    let mut labels = BTreeMap::new();
    let mut lines = BTreeMap::new();
    for (n, raw) in text.lines().enumerate() {
        let line = n + 1;
        let err = |kind| AsmError {
            line,
            text: raw.trim().to_string(),
            kind,
        };
        let mut rest = strip_comment(raw).trim();
        lines.insert(line, raw.trim().to_string());
        // Leading labels.
        while let Some(colon) = rest.find(':') {
            let name = rest[..colon].trim();
            if !is_symbol(name) {
                break;
            }
            if labels.insert(name.to_string(), pending.len()).is_some() {
                return Err(err(AsmErrorKind::DuplicateLabel(name.into())));
            }
            rest = rest[colon + 1..].trim();
        }
        if rest.is_empty() {
            continue;
        }
        if rest.starts_with('.') {
            let name = rest.split_whitespace().next().unwrap_or(rest);
            if IGNORED_DIRECTIVES.contains(&name) {
                continue;
            }
            return Err(err(AsmErrorKind::UnknownDirective(name.into())));
        }
        let (mnemonic, operands) = match rest.find(char::is_whitespace) {
            Some(i) => (&rest[..i], rest[i..].trim()),
            None => (rest, ""),
        };
        let ops: Vec<&str> = if operands.is_empty() {
            Vec::new()
        } else {
            operands.split(',').map(str::trim).collect()
        };
        let mnemonic = mnemonic.to_ascii_lowercase();
        for (inst, target) in parse_line(&mnemonic, &ops).map_err(err)? {
            pending.push(Pending { inst, target, line });
        }
    }
    let mut insts = Vec::with_capacity(pending.len());
    for (i, p) in pending.iter().enumerate() {
        let err = |kind| AsmError {
            line: p.line,
            text: lines.get(&p.line).cloned().unwrap_or_default(),
            kind,
        };
        let inst = match &p.target {
            None => p.inst,
            Some(Target::Offset(o)) => p.inst.with_branch_offset(*o),
            Some(Target::Label(name)) => {
                let t = *labels
                    .get(name)
                    .ok_or_else(|| err(AsmErrorKind::UnknownLabel(name.clone())))?;
                let offset = (t as i64 - i as i64) * 4;
                p.inst.with_branch_offset(offset as i32)
            }
        };
        encode(&inst).map_err(|e| err(AsmErrorKind::Encode(e)))?;
        insts.push(inst);
    }
    Ok(Program { insts, labels })
}

fn strip_comment(line: &str) -> &str {
    let cut = [line.find('#'), line.find("//")]
        .into_iter()
        .flatten()
        .min();
    match cut {
        Some(i) => &line[..i],
        None => line,
    }
}

pub(super) fn is_symbol(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '.' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$')
}
