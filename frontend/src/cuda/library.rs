//! `constexpr` functions of the C++ library called from device code.
//!
//! In CUDA mode clang makes every `constexpr` function implicitly
//! `__host__ __device__` (what nvcc's `--expt-relaxed-constexpr` allows), so
//! device code may call `std::numeric_limits<T>::max()`, `std::min` or
//! `std::max`. Their declarations live in the implementation's headers,
//! which the reader skips; before lowering, the device-callable ones that
//! device code references are fetched from the AST text (transitively: a
//! fetched body may call more of them).

use std::collections::{HashMap, HashSet};

use crate::ast::{Kind, Node, NodeId, TranslationUnit};

/// At most this many library functions are fetched for one unit.
const LIMIT: usize = 512;

fn device_callable(n: &Node) -> bool {
    n.kind.is_function() && (n.has_attr(&Kind::CUDADeviceAttr) || n.has_attr(&Kind::CUDAGlobalAttr))
}

fn has_body(n: &Node) -> bool {
    n.inner.iter().any(|c| c.kind == Kind::CompoundStmt)
}

/// Ids of functions that `n`'s subtree refers to.
fn referenced_functions(n: &Node, out: &mut Vec<NodeId>) {
    n.walk(&mut |c| {
        if let Some(d) = &c.referenced_decl {
            if d.kind.is_function() {
                out.push(d.id);
            }
        }
        if c.kind == Kind::MemberExpr {
            if let Some(id) = c.referenced_member_decl {
                out.push(id);
            }
        }
    });
}

/// The skipped library functions with bodies that device code (kept
/// device functions, and transitively the fetched ones) refers to.
pub fn fetch(tu: &TranslationUnit, kept: &HashMap<NodeId, &Node>) -> Vec<Node> {
    let mut wanted = Vec::new();
    for n in kept.values() {
        if device_callable(n) && has_body(n) {
            referenced_functions(n, &mut wanted);
        }
    }
    let mut seen: HashSet<NodeId> = HashSet::new();
    let mut fetched = Vec::new();
    while let Some(id) = wanted.pop() {
        if kept.contains_key(&id) || !seen.insert(id) || fetched.len() >= LIMIT {
            continue;
        }
        let Ok(Some(node)) = tu.find_node(id) else {
            continue;
        };
        if device_callable(&node) && has_body(&node) {
            referenced_functions(&node, &mut wanted);
            fetched.push(node);
        }
    }
    fetched
}
