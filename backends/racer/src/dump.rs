//! Text and SVG pictures of a placed graph, for people checking where
//! things went.

use std::fmt::Write;

use crate::graph::{print, Graph, NodeKind};
use crate::machine::Machine;
use crate::place::{Pe, Placement};

fn label(g: &Graph, i: usize) -> String {
    let n = &g.nodes[i];
    let kind = match &n.kind {
        NodeKind::Op(op) => op.mnemonic(),
        NodeKind::Copy => "copy".into(),
        NodeKind::Sync => "sync".into(),
        NodeKind::Split => format!("split/{}", n.outputs.len() / 2),
        NodeKind::Merge => format!("merge/{}", n.outputs.len()),
        NodeKind::Delay { depth, .. } => format!("delay{depth}"),
        NodeKind::Source { name } => format!("source {name}"),
        NodeKind::Sink { name, .. } => format!("sink {name}"),
        NodeKind::Discard => "discard".into(),
    };
    format!("n{i}:{kind}")
}

fn is_back_edge(g: &Graph, node: usize, port: usize) -> bool {
    matches!(g.nodes[node].kind, NodeKind::Merge) && port < g.nodes[node].outputs.len()
}

/// The block as a grid (one cell per PE: `G` marks G elements, then the
/// nodes placed there), followed by the routed graph in the IR's text
/// form and the nodes left off the block.
pub fn dump_text(g: &Graph, p: &Placement, m: &Machine) -> String {
    let (rows, cols) = (p.blocks.0 * m.block_rows, p.blocks.1 * m.block_cols);
    let region = if p.blocks == (1, 1) {
        format!("block {rows}x{cols}")
    } else {
        format!("{}x{} blocks ({rows}x{cols} PEs)", p.blocks.0, p.blocks.1)
    };
    let mut out = format!(
        "{region} of a {}x{} array, {} PEs used\n",
        m.array_rows,
        m.array_cols,
        p.pes_used()
    );
    for row in 0..rows {
        for col in 0..cols {
            let here = labels_at(g, p, Pe { row, col });
            let _ = writeln!(
                out,
                "  ({row},{col}){} {}",
                if m.is_g(row, col) { " G" } else { "  " },
                if here.is_empty() {
                    "-".to_string()
                } else {
                    here.join(" ")
                }
            );
        }
    }
    let off: Vec<String> = (0..g.nodes.len())
        .filter(|&i| p.at.get(i).is_none_or(Option::is_none))
        .map(|i| label(g, i))
        .collect();
    let _ = writeln!(out, "off the block: {}", off.join(" "));
    out.push_str(&print(g));
    out
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// An SVG of the block: PEs as boxes (G elements shaded) listing their
/// nodes, streams between PEs as lines, loop back edges dashed.
pub fn dump_svg(g: &Graph, p: &Placement, m: &Machine) -> String {
    const CELL: u32 = 180;
    const PAD: u32 = 40;
    let (rows, cols) = (p.blocks.0 * m.block_rows, p.blocks.1 * m.block_cols);
    let w = cols * CELL + 2 * PAD;
    let h = rows * CELL + 2 * PAD;
    let center = |pe: Pe| {
        (
            PAD + pe.col * CELL + CELL / 2,
            PAD + pe.row * CELL + CELL / 2,
        )
    };
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"monospace\" font-size=\"11\">\n"
    );
    let _ = writeln!(s, "<title>{}</title>", esc(&g.name));
    for row in 0..rows {
        for col in 0..cols {
            let (x, y) = (PAD + col * CELL + 6, PAD + row * CELL + 6);
            let fill = if m.is_g(row, col) {
                "#dde8f5"
            } else {
                "#ffffff"
            };
            let _ = writeln!(
                s,
                "<rect class=\"pe\" x=\"{x}\" y=\"{y}\" width=\"{}\" height=\"{}\" fill=\"{fill}\" stroke=\"#333\"/>",
                CELL - 12,
                CELL - 12
            );
            let names = labels_at(g, p, Pe { row, col });
            for (k, n) in names.iter().enumerate() {
                let _ = writeln!(
                    s,
                    "<text x=\"{}\" y=\"{}\">{}</text>",
                    x + 6,
                    y + 16 + 14 * k as u32,
                    esc(n)
                );
            }
        }
    }
    let consumers = g.consumers();
    for (e, cons) in consumers.iter().enumerate() {
        let from = g.edges[e].from.0 .0 as usize;
        let Some(&(to, port)) = cons.first() else {
            continue;
        };
        let to = to.0 as usize;
        let (Some(&Some(a)), Some(&Some(b))) = (p.at.get(from), p.at.get(to)) else {
            continue;
        };
        if a == b {
            continue;
        }
        let ((x1, y1), (x2, y2)) = (center(a), center(b));
        let dash = if is_back_edge(g, to, port as usize) {
            " stroke-dasharray=\"6,4\""
        } else {
            ""
        };
        let _ = writeln!(
            s,
            "<line class=\"stream\" x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"#b33\"{dash}><title>s{e} ({} registers)</title></line>",
            g.edges[e].route_stages
        );
    }
    s.push_str("</svg>\n");
    s
}

/// The labels of the nodes placed (in part) on `pe`, in node order.
fn labels_at(g: &Graph, p: &Placement, pe: Pe) -> Vec<String> {
    (0..g.nodes.len())
        .filter(|&i| p.parts.get(i).is_some_and(|ps| ps.contains(&pe)))
        .map(|i| label(g, i))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::figures::VIEW;
    use crate::lower::tests::{lower_mandel, View};
    use crate::place::place;

    #[test]
    fn mandelbrot_dumps_show_the_placed_loop() {
        let m = Machine::racer_v1();
        let mut l = lower_mandel(&View { w: 8, h: 8, ..VIEW }, true);
        let nodes = l.loops[0].nodes.clone();
        let p = place(&mut l.graph, &m, Some(&nodes)).expect("fits");
        let t = dump_text(&l.graph, &p, &m);
        assert!(
            t.starts_with("block 4x4 of a 32x32 array, 9 PEs used\n"),
            "{t}"
        );
        assert_eq!(t.lines().filter(|l| l.starts_with("  (")).count(), 16);
        assert!(t.contains("merge/") && t.contains("split/"), "{t}");
        assert!(t.contains("off the block: n0:source tid"), "{t}");
        let svg = dump_svg(&l.graph, &p, &m);
        assert_eq!(svg.matches("<rect class=\"pe\"").count(), 16);
        assert_eq!(svg.matches("#dde8f5").count(), 7, "G elements shaded");
        assert!(svg.contains("stroke-dasharray"), "a dashed back edge");
        assert!(svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches('<').count(), svg.matches('>').count());
    }

    #[test]
    fn names_are_escaped() {
        assert_eq!(esc("a<b&\"c\">"), "a&lt;b&amp;&quot;c&quot;&gt;");
    }
}
