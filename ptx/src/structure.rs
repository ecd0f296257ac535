//! Structuring PTX's control flow: from a CFG of basic blocks to a plan of
//! nested blocks and loops the lowering turns into `if` and `while`.
//!
//! The algorithm follows the dominator-tree translation of reducible CFGs
//! (Ramsey, "Beyond Relooper", 2022): each node is emitted where its
//! immediate dominator is, loop headers wrap their natural loop in a loop,
//! and a node with several forward predecessors (a merge node) follows a
//! "block" whose exits reach it. Nodes outside a loop whose dominator is
//! inside it are moved after the outermost loop they leave, so loop bodies
//! contain only the loop. `docs/ptx.md` shows how blocks, exits and
//! continues become flags, `if` and `while`. An edge to a node that does
//! not dominate its source but is earlier in reverse postorder makes the
//! CFG irreducible, which is reported, never miscompiled.

/// The control-flow graph: successors of each node; node 0 is the entry.
#[derive(Clone, Debug, Default)]
pub struct Cfg {
    /// Successor lists.
    pub succs: Vec<Vec<usize>>,
}

/// How a branch from one node to another is lowered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge {
    /// Back to the header of an enclosing loop: the next iteration.
    Continue,
    /// To a merge node or a node after a loop: leaves the enclosing blocks.
    Exit,
    /// To a node only this one reaches: emitted in place.
    Inline,
}

/// The structure of a reducible CFG.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Position of each node in reverse postorder (`usize::MAX`: unreachable).
    pub rpo: Vec<usize>,
    /// Immediate dominators (the entry is its own).
    pub idom: Vec<usize>,
    /// Nodes with a back edge into them.
    pub header: Vec<bool>,
    /// For each header, membership of its natural loop.
    pub in_loop: Vec<Vec<bool>>,
    /// Merge nodes placed inside each node's code, outermost block first.
    pub inside: Vec<Vec<usize>>,
    /// Nodes after each loop header's loop, outermost block first.
    pub outside: Vec<Vec<usize>>,
    /// Nodes reached through block exits (merge nodes and loop followers).
    pub merge: Vec<bool>,
}

/// An edge that makes the CFG irreducible: (from, to).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Irreducible {
    /// Source node.
    pub from: usize,
    /// Target node (a second entry into a cycle).
    pub to: usize,
}

impl Plan {
    /// How the edge `from -> to` is lowered.
    pub fn edge(&self, from: usize, to: usize) -> Edge {
        if self.header[to] && self.rpo[to] <= self.rpo[from] {
            Edge::Continue
        } else if self.merge[to] {
            Edge::Exit
        } else {
            Edge::Inline
        }
    }
}

fn reverse_postorder(cfg: &Cfg) -> Vec<usize> {
    let n = cfg.succs.len();
    let mut seen = vec![false; n];
    let mut post = Vec::with_capacity(n);
    if n == 0 {
        return post;
    }
    // Iterative DFS: (node, next successor index).
    let mut stack = vec![(0usize, 0usize)];
    seen[0] = true;
    while let Some(&mut (v, ref mut k)) = stack.last_mut() {
        if let Some(&s) = cfg.succs[v].get(*k) {
            *k += 1;
            if s < n && !seen[s] {
                seen[s] = true;
                stack.push((s, 0));
            }
        } else {
            post.push(v);
            stack.pop();
        }
    }
    post.reverse();
    post
}

/// Analyses `cfg`; fails on the first edge that makes it irreducible.
pub fn analyze(cfg: &Cfg) -> Result<Plan, Irreducible> {
    let n = cfg.succs.len();
    let order = reverse_postorder(cfg);
    let mut rpo = vec![usize::MAX; n];
    for (i, &v) in order.iter().enumerate() {
        rpo[v] = i;
    }
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &v in &order {
        for &s in &cfg.succs[v] {
            if s < n && !preds[s].contains(&v) {
                preds[s].push(v);
            }
        }
    }
    // Cooper, Harvey and Kennedy's iterative dominators.
    let mut idom = vec![usize::MAX; n];
    if n > 0 {
        idom[0] = 0;
    }
    let intersect = |idom: &Vec<usize>, mut a: usize, mut b: usize| {
        while a != b {
            while rpo[a] > rpo[b] {
                a = idom[a];
            }
            while rpo[b] > rpo[a] {
                b = idom[b];
            }
        }
        a
    };
    let mut changed = true;
    while changed {
        changed = false;
        for &v in order.iter().skip(1) {
            let mut new = usize::MAX;
            for &p in &preds[v] {
                if idom[p] == usize::MAX {
                    continue;
                }
                new = if new == usize::MAX {
                    p
                } else {
                    intersect(&idom, p, new)
                };
            }
            if new != usize::MAX && idom[v] != new {
                idom[v] = new;
                changed = true;
            }
        }
    }
    let dominates = |a: usize, mut b: usize| loop {
        if a == b {
            return true;
        }
        if b == 0 || idom[b] == usize::MAX {
            return false;
        }
        b = idom[b];
    };
    // Back edges and reducibility.
    let mut header = vec![false; n];
    let mut in_loop: Vec<Vec<bool>> = vec![Vec::new(); n];
    for &u in &order {
        for &h in &cfg.succs[u] {
            if h >= n || rpo[h] > rpo[u] {
                continue;
            }
            if !dominates(h, u) {
                return Err(Irreducible { from: u, to: h });
            }
            header[h] = true;
            if in_loop[h].is_empty() {
                in_loop[h] = vec![false; n];
                in_loop[h][h] = true;
            }
            let mut work = vec![u];
            while let Some(x) = work.pop() {
                if in_loop[h][x] {
                    continue;
                }
                in_loop[h][x] = true;
                work.extend(preds[x].iter().copied());
            }
        }
    }
    // Placement.
    let mut inside: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut outside: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut merge = vec![false; n];
    for &y in order.iter().skip(1) {
        let p = idom[y];
        if p == usize::MAX {
            continue;
        }
        // The outermost loop holding `p` but not `y`.
        let mut best: Option<usize> = None;
        for h in 0..n {
            if header[h] && in_loop[h][p] && !in_loop[h][y] {
                let size = |h: usize| in_loop[h].iter().filter(|&&b| b).count();
                if best.is_none_or(|b| size(h) > size(b)) {
                    best = Some(h);
                }
            }
        }
        if let Some(h) = best {
            outside[h].push(y);
            merge[y] = true;
            continue;
        }
        // Edges counted with multiplicity: a switch or a conditional branch
        // reaching `y` twice from one node makes `y` a merge node too.
        let forward = preds[y]
            .iter()
            .filter(|&&q| rpo[q] < rpo[y])
            .map(|&q| cfg.succs[q].iter().filter(|&&s| s == y).count())
            .sum::<usize>();
        if forward >= 2 {
            inside[p].push(y);
            merge[y] = true;
        }
    }
    for list in inside.iter_mut().chain(outside.iter_mut()) {
        list.sort_by_key(|&v| std::cmp::Reverse(rpo[v]));
    }
    Ok(Plan {
        rpo,
        idom,
        header,
        in_loop,
        inside,
        outside,
        merge,
    })
}
