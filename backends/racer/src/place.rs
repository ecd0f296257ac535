//! Placement of a stream graph on one processing block, route lengths,
//! and replication over the array.
//!
//! Rules (docs/racer.md, "Placement"):
//! - Each operator takes a slot of a PE's resource class; a PE holds at
//!   most its capacity per class (thesis L1023-1029). Classes of operators
//!   the thesis' table does not list are mapped to the nearest unit
//!   (assumed): logic to the integer ALU, conversions to the FP adder,
//!   constant splats to the output MUX (a branching slot).
//! - Forward streams go down and right (thesis L890): a consumer sits in a
//!   row and column no smaller than each producer's; ops chained inside
//!   one PE are allowed (the FPU's units are connected, L896).
//! - Conditional splits sit on "G" elements, and a loop's back edge
//!   leaves the block through a routing element and re-enters at the
//!   merge (closed routes need G elements, L838, L890).
//! - Sources and sinks are memory-unit ports, not PEs.
//!
//! Route stages: one per PE-to-PE hop (`route.stages_per_hop`, at least
//! one); a back edge adds the routing element's stages. The graph is then
//! re-balanced.

use std::collections::BTreeMap;
use std::fmt;

use crate::balance::balance;
use crate::graph::{Graph, NodeId, NodeKind, Operand, Ty};
use crate::machine::Machine;

/// A PE position inside the block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pe {
    /// Row (0 = top).
    pub row: u32,
    /// Column (0 = left).
    pub col: u32,
}

/// Where each node went.
#[derive(Clone, Debug, PartialEq)]
pub struct Placement {
    /// Per node: its PE (the bottom-right corner of its parts), or `None`
    /// for memory-unit ports and nodes left off the block.
    pub at: Vec<Option<Pe>>,
    /// Per node: the PEs it occupies (several for wide merges and splits).
    pub parts: Vec<Vec<Pe>>,
    /// Resource use per PE and class.
    pub used: BTreeMap<Pe, BTreeMap<&'static str, u32>>,
    /// Registers the re-balancing added after routing.
    pub balance_stages: u64,
    /// The region the graph occupies, in blocks (rows, columns); PE
    /// positions count from its top-left corner.
    pub blocks: (u32, u32),
}

impl Placement {
    /// PEs with at least one operator.
    pub fn pes_used(&self) -> usize {
        self.used
            .values()
            .filter(|u| u.values().any(|&k| k > 0))
            .count()
    }
}

/// Why a graph does not fit a block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlaceError {
    /// The node that found no PE.
    pub node: u32,
    /// Why.
    pub message: String,
}

impl fmt::Display for PlaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "node n{}: {}", self.node, self.message)
    }
}

impl std::error::Error for PlaceError {}

/// The PE resource class and slots a node takes, if it takes a PE.
pub fn demand(kind: &NodeKind, outputs: usize) -> Option<(&'static str, u32)> {
    Some(match kind {
        NodeKind::Source { .. } | NodeKind::Sink { .. } | NodeKind::Discard => return None,
        NodeKind::Op(op) => match op.class() {
            "fmul" => ("fmul", 1),
            // Conversions run on the FP adder (assumed).
            "fadd" | "fsub" | "convert" => ("fadd", 1),
            "compare" => ("compare", 1),
            // A constant per trigger element is the output MUX choosing
            // an LMU word (assumed).
            "const" => ("branch", 1),
            _ => ("iadd", 1),
        },
        NodeKind::Copy => ("branch", 1),
        NodeKind::Split => ("branch", (outputs / 2) as u32),
        NodeKind::Merge => ("merge", outputs as u32),
        NodeKind::Sync => ("sync", outputs as u32),
        // A delay line is pipeline registers on a route.
        NodeKind::Delay { .. } => ("sync", 1),
    })
}

fn is_feedback(g: &Graph, node: usize, port: usize) -> bool {
    matches!(g.nodes[node].kind, NodeKind::Merge) && port < g.nodes[node].outputs.len()
}

/// Lanes of a node steering several streams (merge, sync, split), or
/// `None` for nodes that take one PE whole.
fn lanes(node: &crate::graph::Node) -> Option<usize> {
    match node.kind {
        NodeKind::Merge | NodeKind::Sync => Some(node.outputs.len()),
        NodeKind::Split => Some(node.outputs.len() / 2),
        _ => None,
    }
}

/// Whether input `port` of `node` feeds part `part` (parts hold `cap`
/// lanes each; a split's condition feeds every part).
pub(crate) fn input_in_part(node: &crate::graph::Node, port: usize, cap: u32, part: usize) -> bool {
    let Some(n) = lanes(node) else {
        return true;
    };
    let lane = match node.kind {
        NodeKind::Merge => port % n,
        NodeKind::Split if port == 0 => return true,
        NodeKind::Split => port - 1,
        _ => port,
    };
    lane / cap as usize == part
}

pub(crate) fn part_cap(node: &crate::graph::Node, m: &Machine) -> u32 {
    demand(&node.kind, node.outputs.len())
        .and_then(|(class, _)| m.pe_capacity.get(class).copied())
        .unwrap_or(1)
        .max(1)
}

/// The PE that drives output `port` of node `i`, if it is on the block.
pub(crate) fn port_pe(
    g: &Graph,
    parts: &[Vec<Pe>],
    m: &Machine,
    i: usize,
    port: usize,
) -> Option<Pe> {
    let node = &g.nodes[i];
    let lane = match (lanes(node), &node.kind) {
        (Some(n), NodeKind::Split) => port % n.max(1),
        (Some(_), _) => port,
        (None, _) => 0,
    };
    let p = &parts[i];
    let k = if lanes(node).is_some() {
        lane / part_cap(node, m) as usize
    } else {
        0
    };
    p.get(k).or(p.last()).copied()
}

/// The PE that receives input `port` of node `i` (a split's condition:
/// its farthest part), if it is on the block.
fn in_port_pe(g: &Graph, parts: &[Vec<Pe>], m: &Machine, i: usize, port: usize) -> Option<Pe> {
    let node = &g.nodes[i];
    let p = &parts[i];
    if lanes(node).is_none() || (matches!(node.kind, NodeKind::Split) && port == 0) {
        return p.iter().copied().max_by_key(|q| q.row + q.col);
    }
    let cap = part_cap(node, m) as usize;
    (0..p.len())
        .find(|&k| input_in_part(node, port, cap as u32, k))
        .and_then(|k| p.get(k))
        .copied()
}

/// A PE scan order.
type ScanKey = fn(&Pe) -> (u32, u32, u32);

/// Places `g` on one block of `m` and sets its route stages; on success
/// `g` is routed and re-balanced. Greedy in dependence order (depth first,
/// then breadth first); PEs are tried in a few scan orders (diagonals
/// first, rows, columns) and the first combination that fits everything
/// wins.
///
/// The region is one block if the graph fits there, otherwise the
/// smallest rectangle of blocks that it fits (fewest blocks, then the
/// squarest): the rules are the same across block boundaries (streams
/// enter a block at its top or left and leave at its bottom or right,
/// L890), each crossing adding a routing element's stages (L1090), and
/// every block has its own G elements.
///
/// With `only`, just those nodes go on the region; the other operators
/// are treated like memory-unit ports outside it (used to place one loop).
pub fn place(g: &mut Graph, m: &Machine, only: Option<&[NodeId]>) -> Result<Placement, PlaceError> {
    crate::graph::verify(g).map_err(|e| PlaceError {
        node: e.node.map_or(0, |n| n.0),
        message: e.to_string(),
    })?;
    let (br, bc) = (
        (m.array_rows / m.block_rows.max(1)).max(1),
        (m.array_cols / m.block_cols.max(1)).max(1),
    );
    let mut shapes: Vec<(u32, u32)> = (1..=br)
        .flat_map(|r| (1..=bc).map(move |c| (r, c)))
        .collect();
    shapes.sort_by_key(|&(r, c)| (r * c, r.max(c), r));
    let mut first_err = None;
    for shape in shapes {
        match place_on(g, m, only, shape) {
            Ok(p) => return Ok(p),
            Err(e) => {
                first_err.get_or_insert(e);
            }
        }
    }
    Err(first_err.unwrap_or(PlaceError {
        node: 0,
        message: "no region".into(),
    }))
}

/// Places `g` on a region of `blocks` (rows, columns) blocks.
pub fn place_on(
    g: &mut Graph,
    m: &Machine,
    only: Option<&[NodeId]>,
    blocks: (u32, u32),
) -> Result<Placement, PlaceError> {
    let orders: [ScanKey; 4] = [
        |p| (p.row + p.col, p.row, p.col),
        |p| (p.row + p.col, p.col, p.row),
        |p| (p.row, p.col, 0),
        |p| (p.col, p.row, 0),
    ];
    let (rows, cols) = (blocks.0 * m.block_rows, blocks.1 * m.block_cols);
    let mut first_err = None;
    for breadth_first in [false, true] {
        for key in orders {
            let mut pes: Vec<Pe> = (0..rows)
                .flat_map(|row| (0..cols).map(move |col| Pe { row, col }))
                .collect();
            pes.sort_by_key(key);
            match place_in_order(g, m, &pes, only, breadth_first, blocks) {
                Ok(p) => return Ok(p),
                Err(e) => {
                    first_err.get_or_insert(e);
                }
            }
        }
    }
    Err(first_err.unwrap_or(PlaceError {
        node: 0,
        message: "no scan order".into(),
    }))
}

fn place_in_order(
    g: &mut Graph,
    m: &Machine,
    pes: &[Pe],
    only: Option<&[NodeId]>,
    breadth_first: bool,
    blocks: (u32, u32),
) -> Result<Placement, PlaceError> {
    let (rows, cols) = (blocks.0 * m.block_rows, blocks.1 * m.block_cols);
    // Order: forward edges only (the balance pass checks the same).
    let n = g.nodes.len();
    let consumers = g.consumers();
    let mut pending: Vec<usize> = (0..n)
        .map(|i| {
            g.nodes[i]
                .inputs
                .iter()
                .enumerate()
                .filter(|(k, o)| matches!(o, Operand::Stream(_)) && !is_feedback(g, i, *k))
                .count()
        })
        .collect();
    let mut ready: std::collections::VecDeque<usize> =
        (0..n).filter(|&i| pending[i] == 0).collect();
    let mut order = Vec::new();
    // Depth first (the last node made ready next) keeps chains together;
    // breadth first places by distance from the inputs.
    while let Some(i) = if breadth_first {
        ready.pop_front()
    } else {
        ready.pop_back()
    } {
        order.push(i);
        for e in &g.nodes[i].outputs {
            for &(c, port) in &consumers[e.0 as usize] {
                let c = c.0 as usize;
                if is_feedback(g, c, port as usize) {
                    continue;
                }
                pending[c] -= 1;
                if pending[c] == 0 {
                    ready.push_back(c);
                }
            }
        }
    }
    if order.len() != n {
        return Err(PlaceError {
            node: 0,
            message: "the graph has a cycle not closed by a merge".into(),
        });
    }
    // Place in order: the nearest PE to the top-left that respects the
    // producers' positions, the G rule and the capacities. A node wider
    // than a PE's slots is placed part by part, each part holding a run of
    // lanes and needing only the producers of its own lanes above/left.
    let mut at: Vec<Option<Pe>> = vec![None; n];
    let mut parts: Vec<Vec<Pe>> = vec![Vec::new(); n];
    let mut used: BTreeMap<Pe, BTreeMap<&'static str, u32>> = BTreeMap::new();
    for &i in &order {
        let node = &g.nodes[i];
        let Some((class, k)) = demand(&node.kind, node.outputs.len()) else {
            continue;
        };
        if only.is_some_and(|o| !o.contains(&NodeId(i as u32))) {
            continue;
        }
        let cap = m.pe_capacity.get(class).copied().unwrap_or(0);
        if cap == 0 {
            return Err(PlaceError {
                node: i as u32,
                message: format!("a PE has no {class} slot"),
            });
        }
        let needs_g = matches!(node.kind, NodeKind::Split);
        let nparts = k.div_ceil(cap).max(1) as usize;
        let mut here: Vec<Pe> = Vec::new();
        for part in 0..nparts {
            let take = (k - part as u32 * cap).min(cap);
            let (mut r0, mut c0) = (0, 0);
            for (port, o) in node.inputs.iter().enumerate() {
                let Operand::Stream(e) = o else { continue };
                if is_feedback(g, i, port) || !input_in_part(node, port, cap, part) {
                    continue;
                }
                let (from, out_port) = g.edge(*e).from;
                if let Some(p) = port_pe(g, &parts, m, from.0 as usize, out_port as usize) {
                    r0 = r0.max(p.row);
                    c0 = c0.max(p.col);
                }
            }
            let spot = pes.iter().copied().find(|p| {
                let u = used.get(p);
                let have = |c: &str| u.and_then(|u| u.get(c)).copied().unwrap_or(0);
                p.row >= r0
                    && p.col >= c0
                    && (!needs_g || m.is_g(p.row, p.col))
                    && have(class) + take <= cap
                    && !here.contains(p)
            });
            let Some(p) = spot else {
                return Err(PlaceError {
                    node: i as u32,
                    message: format!(
                        "no PE at or below/right of ({r0},{c0}) has {take} free {class} slot(s){}",
                        if needs_g { " on a G element" } else { "" }
                    ),
                });
            };
            *used.entry(p).or_default().entry(class).or_insert(0) += take;
            here.push(p);
        }
        let row = here.iter().map(|p| p.row).max().unwrap_or(0);
        let col = here.iter().map(|p| p.col).max().unwrap_or(0);
        at[i] = Some(Pe { row, col });
        parts[i] = here;
    }
    // Routes.
    for (e, cons) in consumers.iter().enumerate() {
        let (from, out_port) = g.edges[e].from;
        let from = from.0 as usize;
        let Some(&(to, port)) = cons.first() else {
            continue;
        };
        let to = to.0 as usize;
        let a = port_pe(g, &parts, m, from, out_port as usize);
        let b = in_port_pe(g, &parts, m, to, port as usize);
        let hops = match (a, b) {
            (Some(a), Some(b)) if is_feedback(g, to, port as usize) => {
                // Out of the region at the bottom/right, round through a
                // routing element, back in at the top/left.
                (rows - a.row) + (cols - a.col) + b.row + b.col
            }
            (Some(a), Some(b)) => (b.row - a.row) + (b.col - a.col),
            // Memory-unit ports sit outside the region.
            (Some(a), None) => (rows - a.row) + (cols - a.col),
            (None, Some(b)) => b.row + b.col + 1,
            (None, None) => 1,
        };
        let mut stages = hops.max(1) * m.route_stages_per_hop;
        match (a, b) {
            (Some(_), Some(_)) if is_feedback(g, to, port as usize) => stages += m.re_stages,
            // From one block into the next through a routing element.
            (Some(a), Some(b)) => {
                let crossings = (b.row / m.block_rows - a.row / m.block_rows)
                    + (b.col / m.block_cols - a.col / m.block_cols);
                stages += crossings * m.re_stages;
            }
            _ => {}
        }
        g.edges[e].route_stages = stages;
    }
    let balance_stages = balance(g, m).map_err(|e| PlaceError {
        node: e.nodes.first().copied().unwrap_or(0),
        message: e.to_string(),
    })?;
    Ok(Placement {
        at,
        parts,
        used,
        balance_stages,
        blocks,
    })
}

/// Copies of a placed program over the array: the top-left PE of each
/// copy of its region of blocks (tiling the array), limited by the
/// array's I/O ports (4 x M for an M x M array, thesis L832). A port
/// carries one stream element of `stream.bits` (4 x 32 bits, L806), so a
/// replica needs as many ports as its memory-unit streams' words fill,
/// inputs and outputs apart (each value takes at least one 32-bit word).
pub fn replicate(g: &Graph, m: &Machine, p: &Placement) -> Vec<Pe> {
    let (rows, cols) = (
        p.blocks.0.max(1) * m.block_rows,
        p.blocks.1.max(1) * m.block_cols,
    );
    let word_bits = |t: Ty| {
        if matches!(t, Ty::F64 | Ty::I64) {
            64
        } else {
            32
        }
    };
    let mut in_bits = 0u32;
    let mut out_bits = 0u32;
    for n in &g.nodes {
        match (&n.kind, n.outputs.first(), n.inputs.first()) {
            (NodeKind::Source { .. }, Some(e), _) => in_bits += word_bits(g.edge(*e).ty),
            (NodeKind::Sink { .. }, _, Some(Operand::Stream(e))) => {
                out_bits += word_bits(g.edge(*e).ty)
            }
            _ => {}
        }
    }
    let ports_per_replica =
        (in_bits.div_ceil(m.stream_bits) + out_bits.div_ceil(m.stream_bits)).max(1);
    let ports = 2 * (m.array_rows + m.array_cols);
    let by_ports = ports / ports_per_replica;
    (0..m.array_rows / rows)
        .flat_map(|br| (0..m.array_cols / cols).map(move |bc| (br, bc)))
        .take(by_ports as usize)
        .map(|(br, bc)| Pe {
            row: br * rows,
            col: bc * cols,
        })
        .collect()
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{ArithOp, Scalar, Ty};

    fn chain(k: usize) -> Graph {
        let mut g = Graph::new("chain");
        let mut e = g.add1(NodeKind::Source { name: "x".into() }, vec![], Ty::F64, 0);
        for _ in 0..k {
            e = g.add1(
                NodeKind::Op(ArithOp::FMul),
                vec![Operand::Stream(e), Operand::Lmu(Scalar::F64(1.0))],
                Ty::F64,
                0,
            );
        }
        g.add(
            NodeKind::Sink {
                name: "y".into(),
                sort: false,
            },
            vec![Operand::Stream(e)],
            &[],
            0,
        );
        g
    }

    #[test]
    fn a_chain_runs_down_the_diagonal_and_routes_are_set() {
        let m = Machine::racer_v1();
        let mut g = chain(7);
        let p = place(&mut g, &m, None).expect("fits");
        assert_eq!(p.pes_used(), 7);
        // Every consumer sits below/right of its producer, one hop away.
        for w in p.at.windows(2) {
            if let [Some(a), Some(b)] = w {
                assert_eq!((b.row - a.row) + (b.col - a.col), 1);
            }
        }
        assert!(g.edges.iter().all(|e| e.route_stages >= 1));
    }

    #[test]
    fn a_chain_longer_than_a_block_path_spans_two_blocks() {
        // A down/right path through a 4 x 4 block visits at most 7 PEs.
        let m = Machine::racer_v1();
        let e = place_on(&mut chain(8), &m, None, (1, 1)).expect_err("not on one block");
        assert!(e.message.contains("fmul"), "{e}");
        let mut g = chain(8);
        let p = place(&mut g, &m, None).expect("fits two blocks");
        assert_eq!(p.blocks.0 * p.blocks.1, 2);
        assert_eq!(p.pes_used(), 8);
        // The stream from one block into the other passes a routing
        // element; the others are one hop.
        let stages: Vec<u32> = g.edges.iter().map(|e| e.route_stages).collect();
        assert!(stages.contains(&(1 + m.re_stages)), "{stages:?}");
        // Replicas tile the array with the two-block region.
        assert_eq!(replicate(&g, &m, &p).len(), 32);
        // A chain no region holds is still an error.
        let mut long = chain(70);
        assert!(place(&mut long, &m, None).is_err());
    }
}
