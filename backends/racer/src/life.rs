//! Conway's Game of Life as the thesis maps it (L1051-1066): the memory
//! unit emits the grid three times, each copy one line later than the
//! previous, and local delay chains on each copy build the 3 x 3
//! neighbourhood; 7 adders count the neighbours, 3 comparators and 3
//! logic operations apply the rule, and one stream goes back to memory for
//! the next generation. MU sorting is not used.
//!
//! Boundaries are not given in the thesis; this model stores the grid with
//! a border of dead cells (assumed), so a row of the padded grid is
//! `w + 2` cells and the element for padded column `c` completes the
//! neighbourhood of cell `c - 1`. The MU writes back only the elements
//! that belong to real cells (its index generation, L812).

use std::collections::BTreeMap;

use crate::graph::{ArithOp, EdgeId, Graph, NodeKind, Operand, Pred, Scalar, Ty};
use crate::machine::Machine;
use crate::sim::{Sim, SimError, Token};

/// The rule graph (independent of the grid size).
pub fn life_graph() -> Graph {
    let mut g = Graph::new("life");
    let s = Operand::Stream;
    // Each line stream: columns c, c-1, c-2 via a delay chain.
    let mut cols: Vec<[EdgeId; 3]> = Vec::new();
    for name in ["up", "mid", "down"] {
        let e = g.add1(NodeKind::Source { name: name.into() }, vec![], Ty::I32, 0);
        let (_, c) = g.add(NodeKind::Copy, vec![s(e)], &[Ty::I32; 3], 0);
        // Column c - depth: the copy delayed, dead cells before the line.
        let mut delayed = |depth: u32, e: EdgeId| {
            let fill = Scalar::Int(0);
            let kind = NodeKind::Delay {
                depth,
                fill,
                skip: 0,
            };
            g.add1(kind, vec![s(e)], Ty::I32, 0)
        };
        let d1 = delayed(1, c[1]);
        let d2 = delayed(2, c[2]);
        cols.push([c[0], d1, d2]);
    }
    // The centre is needed by the rule and is not a neighbour.
    let (_, centre) = g.add(NodeKind::Copy, vec![s(cols[1][1])], &[Ty::I32; 2], 0);
    let x = centre[0];
    let terms = [
        cols[0][0], cols[0][1], cols[0][2], cols[1][0], cols[1][2], cols[2][0], cols[2][1],
        cols[2][2],
    ];
    // 7 adders as a balanced tree.
    let mut level: Vec<EdgeId> = terms.to_vec();
    while level.len() > 1 {
        level = level
            .chunks(2)
            .map(|p| match p {
                [a, b] => g.add1(NodeKind::Op(ArithOp::IAdd), vec![s(*a), s(*b)], Ty::I32, 0),
                _ => p[0],
            })
            .collect();
    }
    let n = level[0];
    let (_, nn) = g.add(NodeKind::Copy, vec![s(n)], &[Ty::I32; 2], 0);
    let three = g.add1(
        NodeKind::Op(ArithOp::ICmp(Pred::Eq)),
        vec![s(nn[0]), Operand::Lmu(Scalar::Int(3))],
        Ty::I1,
        0,
    );
    let two = g.add1(
        NodeKind::Op(ArithOp::ICmp(Pred::Eq)),
        vec![s(nn[1]), Operand::Lmu(Scalar::Int(2))],
        Ty::I1,
        0,
    );
    let alive = g.add1(
        NodeKind::Op(ArithOp::ICmp(Pred::Eq)),
        vec![s(x), Operand::Lmu(Scalar::Int(1))],
        Ty::I1,
        0,
    );
    let stay = g.add1(
        NodeKind::Op(ArithOp::And),
        vec![s(two), s(alive)],
        Ty::I1,
        0,
    );
    let next = g.add1(
        NodeKind::Op(ArithOp::Or),
        vec![s(three), s(stay)],
        Ty::I1,
        0,
    );
    let next = g.add1(NodeKind::Op(ArithOp::IntCast), vec![s(next)], Ty::I32, 0);
    g.add(NodeKind::Discard, vec![s(centre[1])], &[], 0);
    g.add(
        NodeKind::Sink {
            name: "next".into(),
            sort: false,
        },
        vec![s(next)],
        &[],
        0,
    );
    g
}

/// A grid of 0/1 cells, `h` rows of `w`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Columns.
    pub w: usize,
    /// Rows.
    pub h: usize,
    /// Row-major cells.
    pub cells: Vec<i32>,
}

impl Grid {
    fn padded(&self, r: usize, c: usize) -> i32 {
        // Padded coordinates: row 0 and h+1, column 0 and w+1 are dead.
        if r == 0 || c == 0 || r > self.h || c > self.w {
            0
        } else {
            self.cells[(r - 1) * self.w + (c - 1)]
        }
    }

    /// One generation computed directly (the reference).
    pub fn step_reference(&self) -> Grid {
        let mut cells = vec![0; self.w * self.h];
        for r in 1..=self.h {
            for c in 1..=self.w {
                let mut n = 0;
                for dr in 0..3 {
                    for dc in 0..3 {
                        if (dr, dc) != (1, 1) {
                            n += self.padded(r + dr - 1, c + dc - 1);
                        }
                    }
                }
                let x = self.padded(r, c);
                cells[(r - 1) * self.w + (c - 1)] = i32::from(n == 3 || (n == 2 && x == 1));
            }
        }
        Grid { cells, ..*self }
    }

    /// The three line-delayed streams the MU emits: padded rows r-1, r,
    /// r+1 for r = 1..=h, each row w+2 elements, tagged by element index.
    pub fn mu_streams(&self) -> BTreeMap<String, Vec<Token>> {
        let wp = self.w + 2;
        let line = |dr: usize| -> Vec<Token> {
            (1..=self.h)
                .flat_map(|r| (0..wp).map(move |c| (r, c)))
                .enumerate()
                .map(|(k, (r, c))| Token {
                    tag: k as u64,
                    value: Scalar::Int(self.padded(r + dr - 1, c) as i64),
                })
                .collect()
        };
        [
            ("up".to_string(), line(0)),
            ("mid".to_string(), line(1)),
            ("down".to_string(), line(2)),
        ]
        .into()
    }
}

/// One generation on the simulator; returns the new grid and the cycles
/// it took.
pub fn step_racer(g: &Graph, m: &Machine, grid: &Grid) -> Result<(Grid, u64), SimError> {
    let out = Sim::new(g, m, &grid.mu_streams())?.run(100_000_000)?;
    let wp = grid.w + 2;
    let mut cells = vec![0; grid.w * grid.h];
    let log = out
        .sinks
        .get("next")
        .map(|l| l.stored())
        .unwrap_or_default();
    for t in log {
        let k = t.tag as usize;
        let (r, c) = (k / wp + 1, k % wp);
        // Element at padded column c completes cell c - 1.
        if (2..=grid.w + 1).contains(&c) && r <= grid.h {
            let v = match t.value {
                Scalar::Int(v) => v as i32,
                Scalar::F64(v) => v as i32,
            };
            cells[(r - 1) * grid.w + (c - 2)] = v;
        }
    }
    Ok((Grid { cells, ..*grid }, out.cycles))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::balance::balance;

    /// A deterministic pseudo-random start (xorshift).
    fn start(w: usize, h: usize, seed: u64) -> Grid {
        let mut s = seed;
        let cells = (0..w * h)
            .map(|_| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                i32::from(s % 3 == 0)
            })
            .collect();
        Grid { w, h, cells }
    }

    #[test]
    fn rule_graph_has_the_thesis_operator_counts() {
        let g = life_graph();
        crate::graph::verify(&g).expect("valid");
        let c = g.resource_counts();
        // Thesis L1060: 7 adders, 3 comparators, 3 logic operations (the
        // third here is turning the boolean back into a cell).
        assert_eq!(
            (c["iadd"], c["compare"], c["logic"] + c["convert"]),
            (7, 3, 3),
            "{c:?}"
        );
        assert_eq!(c["delay"], 6, "two delays per line stream");
    }

    #[test]
    fn hundred_generations_bit_exact_against_the_reference() {
        let m = Machine::racer_v1();
        let mut g = life_graph();
        balance(&mut g, &m).expect("acyclic");
        let mut a = start(24, 16, 0x9e37_79b9_7f4a_7c15);
        let mut b = a.clone();
        let mut cycles = Vec::new();
        for gen in 0..100 {
            let (next, c) =
                step_racer(&g, &m, &a).unwrap_or_else(|e| panic!("generation {gen}: {e}"));
            b = b.step_reference();
            assert_eq!(next, b, "generation {gen}");
            a = next;
            cycles.push(c);
        }
        assert!(a.cells.contains(&1), "still alive after 100 generations");
        // The stream graph has no data-dependent control: every
        // generation takes the same time, two cycles per element plus the
        // pipeline's fill.
        assert!(cycles.iter().all(|&c| c == cycles[0]));
        let elements = 16 * 26;
        assert!(
            cycles[0] >= 2 * elements && cycles[0] < 2 * elements + 100,
            "{}",
            cycles[0]
        );
    }

    #[test]
    fn a_blinker_oscillates() {
        let m = Machine::racer_v1();
        let g = life_graph();
        let mut grid = Grid {
            w: 5,
            h: 5,
            cells: vec![0; 25],
        };
        for c in 1..4 {
            grid.cells[2 * 5 + c] = 1;
        }
        let (one, _) = step_racer(&g, &m, &grid).expect("runs");
        let vertical: Vec<usize> = one
            .cells
            .iter()
            .enumerate()
            .filter(|(_, &v)| v == 1)
            .map(|(k, _)| k)
            .collect();
        assert_eq!(vertical, vec![7, 12, 17]);
        let (two, _) = step_racer(&g, &m, &one).expect("runs");
        assert_eq!(two, grid);
    }
}
