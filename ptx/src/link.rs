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

mod scan;
mod text;

use crate::lex::Tok;
use scan::{scan, Kind, Linkage};
use std::collections::{HashMap, HashSet};
use text::{apply, token_len, Edit, LineOffsets};

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

/// A link failure naming the symbol and the units involved: the same error
/// as the IR's device link.
pub use cucc_ir::link::LinkError;

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

#[cfg(test)]
mod tests;
