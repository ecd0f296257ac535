//! Type aliases (`typedef`, `using`) that survive in type spellings.
//!
//! clang desugars only the top level of a type in its JSON
//! (`desugaredQualType`): `uint32_t n[10]` is spelled `uint32_t[10]` and
//! `uint32_t f()` has the type `uint32_t ()`, with no desugared form. The
//! lowering therefore resolves alias names itself: the program's own aliases
//! from the kept declarations, and the C library's (`uint32_t`, `size_t`, ...)
//! by materialising the skipped declaration of that name on first use.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use super::ctype::{self, CType};
use crate::ast::{Kind, Node, TranslationUnit};

/// Alias names and what they stand for.
#[derive(Default)]
pub struct Aliases {
    /// Aliases declared in kept declarations: qualified name and bare name
    /// -> the aliased type's spelling (desugared where clang gives it).
    kept: HashMap<String, String>,
    /// Resolved aliases (`None`: not an alias, or not understood).
    cache: RefCell<HashMap<String, Option<CType>>>,
}

fn is_alias(n: &Node) -> bool {
    matches!(n.kind, Kind::TypedefDecl | Kind::TypeAliasDecl)
}

impl Aliases {
    /// Indexes the aliases among the kept declarations.
    pub fn build(decls: &[Node]) -> Aliases {
        let mut a = Aliases::default();
        a.walk(decls, "");
        a
    }

    fn walk(&mut self, decls: &[Node], prefix: &str) {
        for n in decls {
            match &n.kind {
                _ if is_alias(n) => {
                    if let (Some(name), Some(q)) = (&n.name, &n.ty) {
                        let target = q.canonical().to_string();
                        self.kept
                            .entry(name.clone())
                            .or_insert_with(|| target.clone());
                        self.kept.insert(format!("{prefix}{name}"), target);
                    }
                }
                Kind::NamespaceDecl => {
                    let name = n.name.as_deref().unwrap_or("(anonymous namespace)");
                    self.walk(&n.inner, &format!("{prefix}{name}::"));
                }
                Kind::LinkageSpecDecl => self.walk(&n.inner, prefix),
                _ => {}
            }
        }
    }

    /// The type alias `name` stands for, with every alias inside it resolved
    /// too; `None` if `name` is no alias cucc can read. `is_type` tells names
    /// that are records or enums, which are never looked up as aliases.
    pub fn resolve(
        &self,
        tu: &TranslationUnit,
        name: &str,
        is_type: &dyn Fn(&str) -> bool,
    ) -> Option<CType> {
        self.resolve_depth(tu, name, is_type, 0)
    }

    fn resolve_depth(
        &self,
        tu: &TranslationUnit,
        name: &str,
        is_type: &dyn Fn(&str) -> bool,
        depth: u32,
    ) -> Option<CType> {
        if depth > 16 || is_type(name) {
            return None;
        }
        if let Some(hit) = self.cache.borrow().get(name) {
            return hit.clone();
        }
        let spelled = self.spelling(tu, name);
        let t = spelled
            .and_then(|s| ctype::parse(&s))
            .and_then(|t| self.deep(tu, &t, is_type, depth + 1));
        self.cache.borrow_mut().insert(name.to_string(), t.clone());
        t
    }

    /// The spelling of the aliased type: a kept alias, else the library
    /// alias of that bare name among the skipped declarations.
    fn spelling(&self, tu: &TranslationUnit, name: &str) -> Option<String> {
        let bare = name.rsplit("::").next().unwrap_or(name);
        if let Some(s) = self.kept.get(name).or_else(|| self.kept.get(bare)) {
            return Some(s.clone());
        }
        let d = tu.skipped().iter().find(|d| {
            matches!(d.kind, Kind::TypedefDecl | Kind::TypeAliasDecl)
                && d.name.as_deref() == Some(bare)
        })?;
        let n = tu.materialise(d.id).ok()??;
        n.ty.as_ref().map(|q| q.canonical().to_string())
    }

    /// `t` with every alias name inside it replaced; `None` when one cannot
    /// be resolved and is no record or enum either.
    fn deep(
        &self,
        tu: &TranslationUnit,
        t: &CType,
        is_type: &dyn Fn(&str) -> bool,
        depth: u32,
    ) -> Option<CType> {
        let rec = |x: &CType| self.deep(tu, x, is_type, depth);
        Some(match t {
            CType::Named(n) if is_type(n) => t.clone(),
            CType::Named(n) => self.resolve_depth(tu, n, is_type, depth)?,
            CType::Ptr(x) => CType::Ptr(Rc::new(rec(x)?)),
            CType::Ref(x) => CType::Ref(Rc::new(rec(x)?)),
            CType::Volatile(x) => CType::Volatile(Rc::new(rec(x)?)),
            CType::Array(x, n) => CType::Array(Rc::new(rec(x)?), *n),
            CType::Func(r, ps) => CType::Func(
                Rc::new(rec(r)?),
                ps.iter().map(rec).collect::<Option<Vec<_>>>()?,
            ),
            _ => t.clone(),
        })
    }
}
