//! Device linking of relocatable PTX (nvcc `-rdc=true`): the PTX modules of
//! a program's translation units become one PTX module, as NVIDIA's device
//! linker makes one image of them.
//!
//! Linking works on the text, so the result is PTX the frontend reads like
//! any other and a file a user can open when an error names a line of it:
//!
//! - an `.extern` function or variable resolves to the `.visible` (or
//!   `.weak`/`.common`) definition another unit provides; the declaration
//!   is dropped, so every unit uses the one definition (one storage per
//!   variable for the whole program);
//! - two `.visible` definitions of one name are an error; of several `.weak`
//!   (or `.common`) ones, as for C++ inline functions and templates, the
//!   first is kept (a `.visible` one wins over them);
//! - a unit's internal symbols (no linkage directive: `static` functions
//!   and variables, the `$str` literals of `printf`, `.extern .shared`
//!   arrays) are renamed `NAME$uN` when another unit declares the same name;
//! - `.file` numbers are shifted so `.loc` keeps naming the right source;
//! - one header: the highest `.version` of the units, the first `.target`.
//!
//! An `.extern` nobody defines is an error naming the symbol and the unit
//! that uses it, except the calls the frontend implements itself
//! ([`BUILTIN_FUNCTIONS`]).

use crate::lex::{lex, Tok, Token};
use std::collections::{HashMap, HashSet};
use std::fmt;

/// Functions PTX declares `.extern` that the frontend implements (device
/// `printf` and `assert`), so no unit has to define them.
pub const BUILTIN_FUNCTIONS: &[&str] = &["vprintf", "__assertfail"];

/// One translation unit's PTX.
#[derive(Clone, Copy, Debug)]
pub struct Unit<'a> {
    /// How errors name it.
    pub name: &'a str,
    /// Its PTX text.
    pub ptx: &'a str,
}

/// A link failure naming the symbol and the units involved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkError(pub String);

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LinkError {}

/// How a module-scope symbol is linked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Linkage {
    Internal,
    Visible,
    Weak,
    Extern,
}

/// What a module-scope symbol is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Entry,
    Func,
    /// A variable; `true` for `.shared`.
    Var(bool),
}

impl Kind {
    fn describe(self) -> &'static str {
        match self {
            Kind::Entry => "kernel",
            Kind::Func => "device function",
            Kind::Var(_) => "variable",
        }
    }

    fn is_function(self) -> bool {
        matches!(self, Kind::Entry | Kind::Func)
    }
}

/// A module-scope declaration: the tokens `first..=last` of its unit.
#[derive(Clone, Debug)]
struct Decl {
    name: String,
    kind: Kind,
    linkage: Linkage,
    defined: bool,
    first: usize,
    last: usize,
}

/// What the link needs to know of one unit.
struct Scanned {
    toks: Vec<Token>,
    decls: Vec<Decl>,
    /// Header directives (`.version`, `.target`, `.address_size`): token ranges.
    header: Vec<(usize, usize)>,
    version: Option<(u32, u32)>,
    target: Option<String>,
    /// `.file N`/`.loc N` numbers: token indices, and the largest `.file` number.
    file_numbers: Vec<usize>,
    max_file: u64,
}

/// Links `units` into one PTX module (text). One unit is returned as it is,
/// once its external references are checked.
pub fn link(units: &[Unit<'_>]) -> Result<String, LinkError> {
    let mut scanned = Vec::with_capacity(units.len());
    for u in units {
        let s = scan(u.ptx).map_err(|e| {
            LinkError(format!(
                "{}:{}:{}: {}",
                u.name, e.pos.line, e.pos.col, e.message
            ))
        })?;
        scanned.push(s);
    }
    let describe = |i: usize| -> String {
        let kernels: Vec<&str> = scanned[i]
            .decls
            .iter()
            .filter(|d| d.kind == Kind::Entry && d.defined)
            .map(|d| d.name.as_str())
            .collect();
        match kernels.len() {
            0 => format!("{} (no kernels)", units[i].name),
            1..=3 => format!("{} (kernels {})", units[i].name, kernels.join(", ")),
            n => format!(
                "{} (kernels {}, ... {n} in all)",
                units[i].name,
                kernels[..3].join(", ")
            ),
        }
    };

    // The definition each external name resolves to: `.visible` first,
    // else the first `.weak`/`.common` one.
    let mut defs: HashMap<&str, (usize, usize)> = HashMap::new();
    for (u, s) in scanned.iter().enumerate() {
        for (d, decl) in s.decls.iter().enumerate() {
            let external = matches!(decl.linkage, Linkage::Visible | Linkage::Weak);
            if !external || !decl.defined {
                continue;
            }
            match defs.get(decl.name.as_str()) {
                None => {
                    defs.insert(&decl.name, (u, d));
                }
                Some(&(pu, pd)) => {
                    let prev = &scanned[pu].decls[pd];
                    if prev.kind.is_function() != decl.kind.is_function() {
                        return Err(LinkError(format!(
                            "`{}` is a {} in {} and a {} in {}",
                            decl.name,
                            prev.kind.describe(),
                            describe(pu),
                            decl.kind.describe(),
                            describe(u)
                        )));
                    }
                    match (prev.linkage, decl.linkage) {
                        (Linkage::Visible, Linkage::Visible) => {
                            return Err(LinkError(format!(
                                "{} `{}` is defined by both {} and {}",
                                decl.kind.describe(),
                                decl.name,
                                describe(pu),
                                describe(u)
                            )))
                        }
                        (Linkage::Weak, Linkage::Visible) => {
                            defs.insert(&decl.name, (u, d));
                        }
                        _ => {}
                    }
                }
            }
        }
    }

    // Every `.extern` must resolve.
    let mut unresolved = Vec::new();
    for (u, s) in scanned.iter().enumerate() {
        for decl in &s.decls {
            if decl.linkage != Linkage::Extern || decl.kind == Kind::Var(true) {
                continue;
            }
            match defs.get(decl.name.as_str()) {
                Some(&(du, dd)) => {
                    let def = &scanned[du].decls[dd];
                    if def.kind.is_function() != decl.kind.is_function() {
                        return Err(LinkError(format!(
                            "{} declares `{}` as an external {}, but {} defines a {} of that name",
                            describe(u),
                            decl.name,
                            decl.kind.describe(),
                            describe(du),
                            def.kind.describe()
                        )));
                    }
                }
                None if decl.kind.is_function()
                    && BUILTIN_FUNCTIONS.contains(&decl.name.as_str()) => {}
                None => unresolved.push(format!(
                    "undefined {} `{}` (used by {}, defined by no unit)",
                    decl.kind.describe(),
                    decl.name,
                    describe(u)
                )),
            }
        }
    }
    if !unresolved.is_empty() {
        let all: Vec<String> = (0..units.len()).map(describe).collect();
        return Err(LinkError(format!(
            "device link failed: {}; the units linked: {}",
            unresolved.join("; "),
            all.join(", ")
        )));
    }
    if units.len() == 1 {
        return Ok(units[0].ptx.to_string());
    }

    // Names declared by more than one unit: internal ones get renamed.
    let mut declared_by: HashMap<&str, HashSet<usize>> = HashMap::new();
    for (u, s) in scanned.iter().enumerate() {
        for decl in &s.decls {
            declared_by.entry(&decl.name).or_default().insert(u);
        }
    }

    let mut out = String::new();
    let version = scanned.iter().filter_map(|s| s.version).max();
    out.push_str(&format!(
        "// Device link of {} translation units by cucc.\n",
        units.len()
    ));
    if let Some((major, minor)) = version {
        out.push_str(&format!(".version {major}.{minor}\n"));
    }
    if let Some(t) = scanned.iter().find_map(|s| s.target.clone()) {
        out.push_str(&format!(".target {t}\n"));
    }
    out.push_str(".address_size 64\n");
    let mut file_base = 0u64;
    for (u, s) in scanned.iter().enumerate() {
        let text = units[u].ptx;
        let offsets = LineOffsets::new(text);
        let mut edits: Vec<Edit> = Vec::new();
        let span = |first: usize, last: usize| {
            let a = offsets.byte(&s.toks[first]);
            let b = offsets.byte(&s.toks[last]) + token_len(&s.toks[last], text, &offsets);
            (a, b)
        };
        for &(first, last) in &s.header {
            let (a, b) = span(first, last);
            edits.push(Edit::new(a, b, String::new()));
        }
        let mut renames: HashMap<&str, String> = HashMap::new();
        for (d, decl) in s.decls.iter().enumerate() {
            let drop = match decl.linkage {
                Linkage::Extern if decl.kind != Kind::Var(true) => {
                    defs.contains_key(decl.name.as_str())
                }
                Linkage::Visible | Linkage::Weak if decl.defined => {
                    defs.get(decl.name.as_str()) != Some(&(u, d))
                }
                _ => false,
            };
            if drop {
                let (a, b) = span(decl.first, decl.last);
                let note = if decl.linkage == Linkage::Extern {
                    format!("// .extern `{}`: resolved by the device link", decl.name)
                } else {
                    format!("// `{}`: another unit's definition is used", decl.name)
                };
                edits.push(Edit::new(a, b, note));
                continue;
            }
            let internal = decl.linkage == Linkage::Internal
                || (decl.linkage == Linkage::Extern && decl.kind == Kind::Var(true));
            let shared = declared_by
                .get(decl.name.as_str())
                .is_some_and(|by| by.len() > 1);
            if internal && shared {
                if decl.kind == Kind::Entry {
                    return Err(LinkError(format!(
                        "kernel `{}` of {} has internal linkage and another unit declares the same name; kernels are found by name, so the two cannot be told apart",
                        decl.name,
                        describe(u)
                    )));
                }
                renames.insert(&decl.name, format!("{}$u{u}", decl.name));
            }
        }
        if !renames.is_empty() {
            for t in &s.toks {
                if let Tok::Word(w) = &t.tok {
                    if let Some(new) = renames.get(w.as_str()) {
                        let a = offsets.byte(t);
                        edits.push(Edit::new(a, a + w.len(), new.clone()));
                    }
                }
            }
        }
        if file_base > 0 {
            for &i in &s.file_numbers {
                if let Tok::Num(n) = &s.toks[i].tok {
                    if let Ok(v) = n.parse::<u64>() {
                        let a = offsets.byte(&s.toks[i]);
                        edits.push(Edit::new(a, a + n.len(), (v + file_base).to_string()));
                    }
                }
            }
        }
        file_base += s.max_file;
        out.push_str(&format!("\n// ---- {} ----\n", describe(u)));
        out.push_str(&apply(text, edits));
        out.push('\n');
    }
    Ok(out)
}

/// A replacement of the bytes `start..end`.
struct Edit {
    start: usize,
    end: usize,
    with: String,
}

impl Edit {
    fn new(start: usize, end: usize, with: String) -> Edit {
        Edit { start, end, with }
    }
}

/// `text` with `edits` applied; an edit inside an earlier, wider one (a
/// rename inside a dropped definition) is skipped.
fn apply(text: &str, mut edits: Vec<Edit>) -> String {
    edits.sort_by_key(|e| (e.start, std::cmp::Reverse(e.end)));
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for e in edits {
        if e.start < at {
            continue;
        }
        out.push_str(&text[at..e.start]);
        out.push_str(&e.with);
        at = e.end;
    }
    out.push_str(&text[at..]);
    out
}

/// Byte offsets of the lexer's (line, column) positions, which count
/// characters.
struct LineOffsets<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineOffsets<'a> {
    fn new(text: &'a str) -> LineOffsets<'a> {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineOffsets { text, starts }
    }

    fn byte(&self, t: &Token) -> usize {
        let line = (t.pos.line as usize).saturating_sub(1);
        let start = self.starts.get(line).copied().unwrap_or(self.text.len());
        let col = (t.pos.col as usize).saturating_sub(1);
        self.text[start..]
            .char_indices()
            .nth(col)
            .map_or(self.text.len(), |(i, _)| start + i)
    }
}

/// The length in bytes of token `t` as spelled in `text`.
fn token_len(t: &Token, text: &str, offsets: &LineOffsets<'_>) -> usize {
    match &t.tok {
        Tok::Word(w) | Tok::Num(w) => w.len(),
        Tok::Punct(c) => c.len_utf8(),
        Tok::Str(_) => {
            // The closing quote: the first unescaped `"` after the opening one.
            let a = offsets.byte(t);
            let bytes = text.as_bytes();
            let mut i = a + 1;
            while i < bytes.len() {
                match bytes[i] {
                    b'\\' => i += 2,
                    b'"' => return i + 1 - a,
                    _ => i += 1,
                }
            }
            text.len() - a
        }
    }
}

/// State spaces of module-scope variables.
const VAR_SPACES: &[&str] = &[".global", ".const", ".shared", ".tex", ".local"];

/// Finds a unit's module-scope declarations and header directives.
fn scan(ptx: &str) -> crate::Result<Scanned> {
    let toks = lex(ptx)?;
    let mut s = Scanned {
        toks: Vec::new(),
        decls: Vec::new(),
        header: Vec::new(),
        version: None,
        target: None,
        file_numbers: Vec::new(),
        max_file: 0,
    };
    let word = |i: usize| match toks.get(i).map(|t| &t.tok) {
        Some(Tok::Word(w)) => Some(w.as_str()),
        _ => None,
    };
    let is = |i: usize, c: char| toks.get(i).map(|t| &t.tok) == Some(&Tok::Punct(c));
    // The last token on the line of token `i`.
    let line_end = |i: usize| {
        let line = toks[i].pos.line;
        let mut j = i;
        while j + 1 < toks.len() && toks[j + 1].pos.line == line {
            j += 1;
        }
        j
    };
    // The matching closer of the bracket at `i`.
    let close = |i: usize, open: char, shut: char| -> crate::Result<usize> {
        let mut depth = 0usize;
        for (j, t) in toks.iter().enumerate().skip(i) {
            if t.tok == Tok::Punct(open) {
                depth += 1;
            } else if t.tok == Tok::Punct(shut) {
                depth -= 1;
                if depth == 0 {
                    return Ok(j);
                }
            }
        }
        Err(crate::Error::new(
            toks[i].pos,
            format!("`{open}` is not closed"),
        ))
    };
    // `.file`/`.loc` numbers anywhere (in bodies too), and the file of a
    // `.loc`'s `inlined_at`.
    for i in 0..toks.len() {
        if matches!(word(i), Some(".file" | ".loc" | "inlined_at")) {
            if let Some(Tok::Num(n)) = toks.get(i + 1).map(|t| &t.tok) {
                s.file_numbers.push(i + 1);
                if word(i) == Some(".file") {
                    s.max_file = s.max_file.max(n.parse().unwrap_or(0));
                }
            }
        }
    }
    let mut i = 0;
    while i < toks.len() {
        let first = i;
        let Some(w) = word(i) else {
            // Not a directive: the parser will say so.
            i += 1;
            continue;
        };
        match w {
            ".version" | ".target" | ".address_size" => {
                let last = line_end(i);
                if w == ".version" {
                    if let Some(Tok::Num(n)) = toks.get(i + 1).map(|t| &t.tok) {
                        let mut parts = n.split('.').map(|p| p.parse::<u32>().ok());
                        if let (Some(Some(a)), Some(Some(b))) = (parts.next(), parts.next()) {
                            s.version = Some((a, b));
                        }
                    }
                }
                if w == ".target" && s.target.is_none() {
                    let names: Vec<String> = toks[i + 1..=last]
                        .iter()
                        .filter_map(|t| match &t.tok {
                            Tok::Word(w) => Some(w.clone()),
                            _ => None,
                        })
                        .collect();
                    s.target = Some(names.join(", "));
                }
                s.header.push((first, last));
                i = last + 1;
                continue;
            }
            ".file" | ".loc" => {
                i = line_end(i) + 1;
                continue;
            }
            ".section" => {
                let open = (i..toks.len()).find(|&j| is(j, '{'));
                i = match open {
                    Some(o) => close(o, '{', '}')? + 1,
                    None => toks.len(),
                };
                continue;
            }
            ".pragma" => {
                i = (i..toks.len())
                    .find(|&j| is(j, ';'))
                    .map_or(toks.len(), |j| j + 1);
                continue;
            }
            _ => {}
        }
        let mut linkage = Linkage::Internal;
        while let Some(w) = word(i) {
            match w {
                ".visible" => linkage = Linkage::Visible,
                ".weak" | ".common" => linkage = Linkage::Weak,
                ".extern" => linkage = Linkage::Extern,
                _ => break,
            }
            i += 1;
        }
        match word(i) {
            Some(k @ (".entry" | ".func")) => {
                let kind = if k == ".entry" {
                    Kind::Entry
                } else {
                    Kind::Func
                };
                i += 1;
                if kind == Kind::Func && is(i, '(') {
                    i = close(i, '(', ')')? + 1;
                }
                let Some(name) = word(i) else {
                    return Err(crate::Error::new(
                        toks.get(i).map_or(toks[first].pos, |t| t.pos),
                        "expected a function name",
                    ));
                };
                let name = name.to_string();
                // Parameters and performance directives up to `;` or the body.
                let mut j = i + 1;
                let (defined, last) = loop {
                    match toks.get(j).map(|t| &t.tok) {
                        None => {
                            return Err(crate::Error::new(
                                toks[first].pos,
                                format!("`{name}` has neither a body nor a `;`"),
                            ))
                        }
                        Some(Tok::Punct('(')) => j = close(j, '(', ')')? + 1,
                        Some(Tok::Punct(';')) => break (false, j),
                        Some(Tok::Punct('{')) => break (true, close(j, '{', '}')?),
                        _ => j += 1,
                    }
                };
                s.decls.push(Decl {
                    name,
                    kind,
                    linkage,
                    defined,
                    first,
                    last,
                });
                i = last + 1;
            }
            Some(space) if VAR_SPACES.contains(&space) => {
                let shared = space == ".shared";
                let mut j = i;
                let mut names = Vec::new();
                let mut in_init = false;
                let mut depth = 0i32;
                let last = loop {
                    match toks.get(j).map(|t| &t.tok) {
                        None => {
                            return Err(crate::Error::new(
                                toks[first].pos,
                                "a variable declaration without `;`",
                            ))
                        }
                        Some(Tok::Punct(';')) if depth == 0 => break j,
                        Some(Tok::Punct('{' | '[' | '(' | '<')) => depth += 1,
                        Some(Tok::Punct('}' | ']' | ')' | '>')) => depth -= 1,
                        Some(Tok::Punct('=')) => in_init = true,
                        Some(Tok::Punct(',')) if depth == 0 => in_init = false,
                        Some(Tok::Word(w)) if !in_init && depth == 0 && !w.starts_with('.') => {
                            names.push(w.clone())
                        }
                        _ => {}
                    }
                    j += 1;
                };
                let defined = linkage != Linkage::Extern;
                for name in names {
                    s.decls.push(Decl {
                        name,
                        kind: Kind::Var(shared),
                        linkage,
                        defined,
                        first,
                        last,
                    });
                }
                i = last + 1;
            }
            _ => {
                // Something the parser will report; skip the statement.
                i = (i..toks.len())
                    .find(|&j| is(j, ';'))
                    .map_or(toks.len(), |j| j + 1);
            }
        }
    }
    s.toks = toks;
    Ok(s)
}

#[cfg(test)]
mod tests;
