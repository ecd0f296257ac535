//! Minimum vertex cut between values that cannot be recomputed and values
//! needed after a barrier: the smallest set of values to store per thread so
//! that everything else used after the barrier can be recomputed from them
//! (Polygeist, section III-B1).
//!
//! Each value is split into an in-node and an out-node joined by an edge of
//! capacity 1 (storing the value costs 1); data dependences and the
//! source/sink attachments have unbounded capacity. Max flow by shortest
//! augmenting paths. Among equally small cuts the one nearest the sources is
//! taken, as in the paper's Figure 6: the loaded values are kept and the
//! arithmetic on them is recomputed after the barrier, where it sits next to
//! its uses.

use std::collections::VecDeque;

const INF: u32 = u32::MAX / 2;

struct Graph {
    to: Vec<usize>,
    cap: Vec<u32>,
    adj: Vec<Vec<usize>>,
}

impl Graph {
    fn new(n: usize) -> Self {
        Graph {
            to: Vec::new(),
            cap: Vec::new(),
            adj: vec![Vec::new(); n],
        }
    }

    fn edge(&mut self, a: usize, b: usize, c: u32) {
        self.adj[a].push(self.to.len());
        self.to.push(b);
        self.cap.push(c);
        self.adj[b].push(self.to.len());
        self.to.push(a);
        self.cap.push(0);
    }

    /// Max flow from `s` to `t` (Edmonds-Karp).
    fn max_flow(&mut self, s: usize, t: usize) -> u32 {
        let mut flow = 0;
        loop {
            let (seen, prev) = self.search(s);
            if !seen[t] {
                return flow;
            }
            let mut bottleneck = INF;
            let mut v = t;
            while let Some(e) = prev[v] {
                bottleneck = bottleneck.min(self.cap[e]);
                v = self.to[e ^ 1];
            }
            let mut v = t;
            while let Some(e) = prev[v] {
                self.cap[e] -= bottleneck;
                self.cap[e ^ 1] += bottleneck;
                v = self.to[e ^ 1];
            }
            flow += bottleneck;
        }
    }

    /// Nodes reachable from `s` in the residual graph.
    fn reachable(&self, s: usize) -> Vec<bool> {
        self.search(s).0
    }

    /// Breadth-first search of the residual graph from `s`: which nodes it
    /// reaches, and the edge by which each was first reached.
    fn search(&self, s: usize) -> (Vec<bool>, Vec<Option<usize>>) {
        let mut prev: Vec<Option<usize>> = vec![None; self.adj.len()];
        let mut seen = vec![false; self.adj.len()];
        seen[s] = true;
        let mut q = VecDeque::from([s]);
        while let Some(u) = q.pop_front() {
            for &e in &self.adj[u] {
                let v = self.to[e];
                if !seen[v] && self.cap[e] > 0 {
                    seen[v] = true;
                    prev[v] = Some(e);
                    q.push_back(v);
                }
            }
        }
        (seen, prev)
    }
}

/// Nodes are `0..n`; `deps` are (dependency, user) pairs; `sources` cannot
/// be recomputed; `sinks` are needed afterwards. Returns the nodes to store,
/// in increasing order.
pub fn min_vertex_cut(
    n: usize,
    deps: &[(usize, usize)],
    sources: &[usize],
    sinks: &[usize],
) -> Vec<usize> {
    let s = 2 * n;
    let t = 2 * n + 1;
    let mut g = Graph::new(2 * n + 2);
    for i in 0..n {
        g.edge(2 * i, 2 * i + 1, 1);
    }
    for &(d, u) in deps {
        g.edge(2 * d + 1, 2 * u, INF);
    }
    for &i in sources {
        g.edge(s, 2 * i, INF);
    }
    for &i in sinks {
        g.edge(2 * i + 1, t, INF);
    }
    g.max_flow(s, t);
    let r = g.reachable(s);
    (0..n).filter(|&i| r[2 * i] && !r[2 * i + 1]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_figure_six() {
        // x = load, y = load, a = x*x, b = y*y, c = x - v; a, b, c used after.
        let (x, y, a, b, c) = (0, 1, 2, 3, 4);
        let deps = [(x, a), (y, b), (x, c)];
        let cut = min_vertex_cut(5, &deps, &[x, y], &[a, b, c]);
        assert_eq!(cut, vec![x, y]);
    }

    #[test]
    fn ties_keep_the_loaded_value() {
        // x = load; a = x + 1; only a is used after: store x, recompute a.
        let cut = min_vertex_cut(2, &[(0, 1)], &[0], &[1]);
        assert_eq!(cut, vec![0]);
    }

    #[test]
    fn fewer_stores_win_over_loads() {
        // x, y, z loaded; s = x + y + z is the only use: one store (s).
        let deps = [(0, 3), (1, 3), (2, 3)];
        let cut = min_vertex_cut(4, &deps, &[0, 1, 2], &[3]);
        assert_eq!(cut, vec![3]);
    }

    #[test]
    fn pure_chains_need_no_store() {
        // a = tid * 2 (no source), b = load; a and b used after.
        let cut = min_vertex_cut(2, &[], &[1], &[0, 1]);
        assert_eq!(cut, vec![1]);
    }

    #[test]
    fn many_uses_of_one_load() {
        // x = load; a, b, c, d all from x: storing x alone is best.
        let deps = [(0, 1), (0, 2), (0, 3), (0, 4)];
        let cut = min_vertex_cut(5, &deps, &[0], &[1, 2, 3, 4]);
        assert_eq!(cut, vec![0]);
    }
}
