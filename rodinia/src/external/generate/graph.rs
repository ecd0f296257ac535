//! Graphs for bfs in Rodinia's text format, by the rules of Rodinia's
//! own generator (`data/bfs/inputGen/graphgen.cpp`), re-implemented with
//! the project's seeded generator: every node starts 2 to 4 edges (uniform)
//! to uniformly chosen nodes, weights 1 to 10, each edge stored in both
//! directions (so a node has 6 edges on average, loops and repeats
//! allowed, the graph not necessarily connected). One departure: the
//! source is node 0, not a random node, because Rodinia's CUDA bfs reads
//! the source and then sets it to 0 (`bfs.cu:130`) while the OpenMP one
//! uses it; with 0 both search from the same node.
//!
//! The format: the node count; per node `first_edge edge_count`; a blank
//! line, the source, a blank line; the edge count; per edge `dest weight`.

use super::scenes::Rng;
use std::fmt::Write;

/// The text of a graph of `nodes` nodes drawn with `seed`.
pub fn bfs_graph(nodes: usize, seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let mut pick = |n: u64| (rng.next_u64() % n) as usize;
    let mut adjacency: Vec<Vec<(usize, u32)>> = vec![Vec::new(); nodes];
    for i in 0..nodes {
        let count = 2 + pick(3);
        for _ in 0..count {
            let dest = pick(nodes as u64);
            let weight = 1 + pick(10) as u32;
            adjacency[i].push((dest, weight));
            adjacency[dest].push((i, weight));
        }
    }
    let source = 0;
    let total: usize = adjacency.iter().map(Vec::len).sum();
    let mut out = String::with_capacity(total * 12 + nodes * 14);
    let _ = writeln!(out, "{nodes}");
    let mut first = 0;
    for edges in &adjacency {
        let _ = writeln!(out, "{first} {}", edges.len());
        first += edges.len();
    }
    let _ = write!(out, "\n{source}\n\n{total}\n");
    for edges in &adjacency {
        for (dest, weight) in edges {
            let _ = writeln!(out, "{dest} {weight}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_and_rules() {
        let text = bfs_graph(100, 3);
        assert_eq!(text, bfs_graph(100, 3));
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("100"));
        let heads: Vec<(usize, usize)> = (0..100)
            .map(|_| {
                let l = lines.next().expect("node line");
                let mut w = l.split(' ').map(|x| x.parse::<usize>().expect("number"));
                (w.next().expect("first"), w.next().expect("count"))
            })
            .collect();
        assert_eq!(lines.next(), Some(""));
        assert_eq!(lines.next(), Some("0"));
        assert_eq!(lines.next(), Some(""));
        let total: usize = lines.next().expect("total").parse().expect("number");
        // Offsets are running sums; each node has at least its own 2 edges.
        let mut first = 0;
        for &(f, c) in &heads {
            assert_eq!(f, first);
            assert!(c >= 2);
            first += c;
        }
        assert_eq!(first, total);
        // Every edge is stored both ways: 4 to 8 entries per node on average.
        assert!((400..=800).contains(&total), "{total}");
        let edges: Vec<&str> = lines.collect();
        assert_eq!(edges.len(), total);
        for e in edges {
            let mut w = e.split(' ').map(|x| x.parse::<usize>().expect("number"));
            assert!(w.next().expect("dest") < 100);
            assert!((1..=10).contains(&w.next().expect("weight")));
        }
    }
}
