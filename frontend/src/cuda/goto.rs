//! `goto` in device code, made structured the way `break` and `return`
//! are (func.rs): a forward `goto L` sets an `i1` flag for `L`; every
//! statement after it up to the label is guarded by the flag being clear,
//! every loop it leaves stops on it, and at `L` the flag is cleared and
//! the statements from there on run. That covers jumps forward out of
//! nested loops and to a common exit, which is what CUDA programs use
//! (Rodinia's mummergpu). A `goto` whose label is not later in a block
//! enclosing it (a backward jump, a loop made of `goto`, a jump into a
//! block or into a `switch` case) has no such form and is diagnosed.

use std::collections::HashMap;

use crate::ast::{Kind, Node, NodeId};

/// At most this many labels are jumped to in one function (one bit each).
const MAX_LABELS: usize = 64;

/// The labels of one function body that `goto`s jump to.
#[derive(Debug, Default)]
pub struct Labels {
    /// The bit of each label jumped to, by the label's declaration id.
    bits: HashMap<NodeId, u32>,
    /// Why a `goto` (by node id) cannot be made structured.
    bad: HashMap<NodeId, String>,
}

impl Labels {
    /// Finds the `goto`s of `body` and checks each one jumps forward to a
    /// label in a block that encloses it.
    pub fn of(body: &Node) -> Labels {
        let mut l = Labels::default();
        let mut names = HashMap::new();
        collect_names(body, &mut names);
        let mut stack = Vec::new();
        l.check(body, &mut stack, &names);
        l
    }

    /// The bit of the label `goto` node `g` jumps to, or why it cannot.
    pub fn target(&self, g: &Node) -> Result<u32, String> {
        if let Some(why) = self.bad.get(&g.id) {
            return Err(why.clone());
        }
        target_of(g)
            .and_then(|t| self.bits.get(&t).copied())
            .ok_or_else(|| "goto without a known label".to_string())
    }

    /// The bit of label statement `n` if some `goto` jumps to it.
    pub fn bit_of_label(&self, n: &Node) -> Option<u32> {
        label_of(n).and_then(|d| self.bits.get(&d).copied())
    }

    /// The mask of the labels heading the statement `n` (`a: b: stmt`).
    pub fn heading(&self, n: &Node) -> u64 {
        let mut mask = 0;
        let mut cur = n;
        while cur.kind == Kind::LabelStmt {
            if let Some(b) = self.bit_of_label(cur) {
                mask |= 1u64 << b;
            }
            match cur.inner.first() {
                Some(c) => cur = c,
                None => break,
            }
        }
        mask
    }

    /// The bit of the label `goto` `g` jumps to, if it is a valid one.
    pub fn goto_bit(&self, g: &Node) -> Option<u32> {
        if self.bad.contains_key(&g.id) {
            return None;
        }
        target_of(g).and_then(|t| self.bits.get(&t).copied())
    }

    /// Walks `n` with `stack` holding, for every enclosing block, its
    /// statements and the index of the one being walked.
    fn check<'n>(
        &mut self,
        n: &'n Node,
        stack: &mut Vec<(&'n [Node], usize)>,
        names: &HashMap<NodeId, String>,
    ) {
        match n.kind {
            Kind::GotoStmt => self.check_goto(n, stack, names),
            Kind::CompoundStmt => {
                for (i, c) in n.inner.iter().enumerate() {
                    stack.push((&n.inner, i));
                    self.check(c, stack, names);
                    stack.pop();
                }
            }
            _ if n.value_category.is_some() => {}
            _ => {
                for c in &n.inner {
                    self.check(c, stack, names);
                }
            }
        }
    }

    fn check_goto(
        &mut self,
        g: &Node,
        stack: &[(&[Node], usize)],
        names: &HashMap<NodeId, String>,
    ) {
        let Some(t) = target_of(g) else {
            self.bad.insert(g.id, "goto without a label".into());
            return;
        };
        let name = names.get(&t).cloned().unwrap_or_default();
        for &(list, at) in stack.iter().rev() {
            let Some(k) = list.iter().position(|s| heads(s, t)) else {
                continue;
            };
            if k <= at {
                self.bad.insert(
                    g.id,
                    format!(
                        "goto to label '{name}' jumps backward (a loop made with goto), \
                         which is not supported in device code: write the loop as a \
                         for/while loop"
                    ),
                );
                return;
            }
            // In a switch body, a case label between the two starts another
            // segment, which the goto's flag would skip whole.
            if list[at + 1..=k]
                .iter()
                .any(|s| matches!(s.kind, Kind::CaseStmt | Kind::DefaultStmt))
            {
                self.bad.insert(
                    g.id,
                    format!(
                        "goto to label '{name}' jumps across a case label, which is not \
                         supported in device code"
                    ),
                );
                return;
            }
            if !self.bits.contains_key(&t) {
                if self.bits.len() == MAX_LABELS {
                    self.bad.insert(
                        g.id,
                        format!("more than {MAX_LABELS} goto labels in one device function"),
                    );
                    return;
                }
                let b = self.bits.len() as u32;
                self.bits.insert(t, b);
            }
            return;
        }
        self.bad.insert(
            g.id,
            format!(
                "goto to label '{name}' jumps into a block (or a switch case) that does not \
                 enclose the goto, which is not supported in device code"
            ),
        );
    }
}

/// True if statement `s` is headed by the label declared as `decl`.
fn heads(s: &Node, decl: NodeId) -> bool {
    let mut cur = s;
    while cur.kind == Kind::LabelStmt {
        if label_of(cur) == Some(decl) {
            return true;
        }
        match cur.inner.first() {
            Some(c) => cur = c,
            None => return false,
        }
    }
    false
}

fn collect_names(n: &Node, out: &mut HashMap<NodeId, String>) {
    if n.kind == Kind::LabelStmt {
        if let (Some(d), Some(name)) = (label_of(n), &n.name) {
            out.insert(d, name.clone());
        }
    }
    for c in &n.inner {
        collect_names(c, out);
    }
}

fn id_field(n: &Node, key: &str) -> Option<NodeId> {
    let raw = n.extra(key)?;
    let s: String = serde_json::from_str(raw.get()).ok()?;
    NodeId::parse(&s)
}

fn label_of(n: &Node) -> Option<NodeId> {
    (n.kind == Kind::LabelStmt)
        .then(|| id_field(n, "declId"))
        .flatten()
}

fn target_of(n: &Node) -> Option<NodeId> {
    id_field(n, "targetLabelDeclId")
}
