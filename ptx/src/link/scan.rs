//! Finds a PTX unit's module-scope declarations (name, kind, linkage,
//! definition or not, token range) and header directives: all the device
//! link needs, without lowering anything.

use crate::lex::{lex, Tok, Token};

/// How a module-scope symbol is linked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Linkage {
    Internal,
    Visible,
    Weak,
    Extern,
}

/// What a module-scope symbol is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Entry,
    Func,
    /// A variable; `true` for `.shared`.
    Var(bool),
}

impl Kind {
    pub(super) fn describe(self) -> &'static str {
        match self {
            Kind::Entry => "kernel",
            Kind::Func => "device function",
            Kind::Var(_) => "variable",
        }
    }

    pub(super) fn is_function(self) -> bool {
        matches!(self, Kind::Entry | Kind::Func)
    }
}

/// A module-scope declaration: the tokens `first..=last` of its unit.
#[derive(Clone, Debug)]
pub(super) struct Decl {
    pub(super) name: String,
    pub(super) kind: Kind,
    pub(super) linkage: Linkage,
    pub(super) defined: bool,
    pub(super) first: usize,
    pub(super) last: usize,
}

/// What the link needs to know of one unit.
pub(super) struct Scanned {
    pub(super) toks: Vec<Token>,
    pub(super) decls: Vec<Decl>,
    /// Header directives (`.version`, `.target`, `.address_size`): token ranges.
    pub(super) header: Vec<(usize, usize)>,
    pub(super) version: Option<(u32, u32)>,
    pub(super) target: Option<String>,
    /// `.file N`/`.loc N` numbers: token indices, and the largest `.file` number.
    pub(super) file_numbers: Vec<usize>,
    pub(super) max_file: u64,
}

/// State spaces of module-scope variables.
pub(super) const VAR_SPACES: &[&str] = &[".global", ".const", ".shared", ".tex", ".local"];

/// Finds a unit's module-scope declarations and header directives.
pub(super) fn scan(ptx: &str) -> crate::Result<Scanned> {
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
