//! Lambdas in device code.
//!
//! A lambda is an object of an unnamed class: clang dumps the class inside
//! the `LambdaExpr` (its type is spelled `(lambda at FILE:LINE:COL)`), with
//! one unnamed field per capture (`T &` by reference, `T` by copy) and the
//! call operator as a method. The `LambdaExpr`'s other children are the
//! captures' initialisers, in field order, then the body. Inside the body a
//! captured variable is still a `DeclRefExpr` to the enclosing function's
//! variable, so the lowering maps it to the field of the closure `this`
//! points to.

use std::collections::HashMap;
use std::rc::Rc;

use cucc_ir::Value;

use super::ctype::CType;
use super::func::{FnCx, R};
use crate::ast::{Kind, Node, NodeId};

/// One lambda's closure class.
pub struct Closure<'a> {
    /// The class declaration.
    pub record: &'a Node,
    /// The spelling of its type, the record index's key.
    pub key: String,
    /// The captured variable of each field (`None` for `this`).
    pub captures: Vec<Option<NodeId>>,
    /// The initialiser of each field.
    pub inits: Vec<&'a Node>,
}

/// Every lambda under `decls`, by the ids of its call operators (each
/// instantiation of a generic lambda's included).
pub fn index<'a>(decls: &'a [Node]) -> HashMap<NodeId, Rc<Closure<'a>>> {
    let mut out = HashMap::new();
    for d in decls {
        d.walk(&mut |n| {
            if n.kind != Kind::LambdaExpr {
                return;
            }
            let (Some(record), Some(q)) = (n.inner.first(), n.ty.as_ref()) else {
                return;
            };
            if record.kind != Kind::CXXRecordDecl {
                return;
            }
            // Children: the class, one initialiser per capture, the body.
            let inits: Vec<&'a Node> = n
                .inner
                .iter()
                .skip(1)
                .take(n.inner.len().saturating_sub(2))
                .collect();
            let captures = inits.iter().map(|i| captured_var(i)).collect();
            let closure = Rc::new(Closure {
                record,
                key: q.qual_type.clone(),
                captures,
                inits,
            });
            for m in &record.inner {
                let methods: Vec<&Node> = if m.kind == Kind::FunctionTemplateDecl {
                    m.inner.iter().filter(|f| f.kind.is_function()).collect()
                } else {
                    vec![m]
                };
                for f in methods
                    .into_iter()
                    .filter(|f| f.kind == Kind::CXXMethodDecl)
                {
                    out.insert(f.id, closure.clone());
                }
            }
        });
    }
    out
}

/// The variable a capture's initialiser names: by reference a
/// `DeclRefExpr`, by copy that read (through casts, or a copy constructor).
fn captured_var(init: &Node) -> Option<NodeId> {
    let mut n = init;
    loop {
        match n.kind {
            Kind::DeclRefExpr => return n.referenced_decl.as_ref().map(|r| r.id),
            Kind::ImplicitCastExpr
            | Kind::ParenExpr
            | Kind::ExprWithCleanups
            | Kind::CXXConstructExpr
            | Kind::MaterializeTemporaryExpr
                if n.inner.len() == 1 =>
            {
                n = &n.inner[0]
            }
            _ => return None,
        }
    }
}

/// The `FieldDecl` children of a record, in order.
fn fields(record: &Node) -> impl Iterator<Item = &Node> {
    record.inner.iter().filter(|c| c.kind == Kind::FieldDecl)
}

impl<'m, 'a> FnCx<'m, 'a> {
    /// Builds the closure object of lambda `e` at `dst`.
    pub fn lambda_into(&mut self, e: &'a Node, dst: Value) -> R<()> {
        let Some(record) = e.inner.first().filter(|r| r.kind == Kind::CXXRecordDecl) else {
            return self.err(e, "malformed lambda");
        };
        let key =
            e.ty.as_ref()
                .map(|q| q.qual_type.clone())
                .unwrap_or_default();
        let l = self.mc.layout_of(record, &key, e)?;
        let inits = e.inner.iter().skip(1).take(e.inner.len().saturating_sub(2));
        for (f, init) in fields(record).zip(inits) {
            if super::expr::strip(init).kind == Kind::CXXThisExpr {
                return self.err(
                    init,
                    "lambdas that capture `this` are not supported in device code",
                );
            }
            let Some((idx, fct)) = l.fields.get(&f.id).cloned() else {
                return self.err(init, "unknown capture of a lambda");
            };
            let p = self.b().ptr_field(dst, l.ty, idx);
            self.init_into(init, p, &fct, Some(f.id))?;
        }
        Ok(())
    }

    /// The address of variable `var` when the function being lowered is a
    /// lambda's call operator that captured it: its field (by copy), or
    /// what its field points to (by reference).
    pub fn captured(&mut self, var: NodeId, at: &Node) -> R<Option<Value>> {
        let Some(c) = self.mc.lambdas.get(&self.decl.id).cloned() else {
            return Ok(None);
        };
        let Some(k) = c.captures.iter().position(|v| *v == Some(var)) else {
            return Ok(None);
        };
        let (Some(this), Some(f)) = (self.this, fields(c.record).nth(k)) else {
            return Ok(None);
        };
        let l = self.mc.layout_of(c.record, &c.key, at)?;
        let Some((idx, fct)) = l.fields.get(&f.id).cloned() else {
            return Ok(None);
        };
        let p = self.b().ptr_field(this, l.ty, idx);
        Ok(Some(if matches!(fct, CType::Ref(_)) {
            let gp = self.mc.generic_ptr();
            self.b().load(p, gp)
        } else {
            p
        }))
    }
}
