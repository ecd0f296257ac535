//! Binding a lowered kernel's memory-unit streams to buffers and writing
//! the sorted results back: what a memory unit does around a run.

use std::collections::BTreeMap;

use crate::graph::Scalar;
use crate::lower::Lowered;
use crate::sim::{Outcome, Token};

/// The source streams of `l` for `buffers` (by kernel parameter): the
/// `tid` stream, the memory units' index functions, and element
/// `tag + offset` of each read buffer in tag order.
pub fn bind(
    l: &Lowered,
    buffers: &BTreeMap<usize, Vec<Scalar>>,
) -> Result<BTreeMap<String, Vec<Token>>, String> {
    bind_range(l, buffers, 0..l.threads)
}

/// [`bind`] for the threads `tags` alone (one replica's share): the same
/// elements, each buffer stream primed with the `lead` elements before
/// the share's first tag.
pub fn bind_range(
    l: &Lowered,
    buffers: &BTreeMap<usize, Vec<Scalar>>,
    tags: std::ops::Range<u64>,
) -> Result<BTreeMap<String, Vec<Token>>, String> {
    let mut out = BTreeMap::new();
    for s in &l.inputs {
        let index = l
            .index_functions
            .iter()
            .find(|(n, _)| *n == s.name)
            .map(|(_, f)| f);
        let data: Vec<Token> = match (s.param, index) {
            (None, Some(f)) => tags
                .clone()
                .map(|t| Token {
                    tag: t,
                    value: f.eval(t),
                })
                .collect(),
            (None, None) => tags
                .clone()
                .map(|t| Token {
                    tag: t,
                    value: Scalar::Int(t as i64),
                })
                .collect(),
            (Some(p), _) => {
                let buf = buffers
                    .get(&p)
                    .ok_or(format!("no buffer bound to parameter {p}"))?;
                // Leading elements prime delay lines; their tags wrap
                // below 0 and never reach a join.
                (tags.start..tags.end + s.lead)
                    .map(|j| {
                        let k = j as i64 + s.offset;
                        let tag = (j as i64 - s.lead as i64) as u64;
                        usize::try_from(k)
                            .ok()
                            .and_then(|k| buf.get(k))
                            .map(|v| Token { tag, value: *v })
                            .ok_or(format!(
                                "stream element {j} reads element {k} of parameter {p}, which has {} elements",
                                buf.len()
                            ))
                    })
                    .collect::<Result<_, _>>()?
            }
        };
        out.insert(s.name.clone(), data);
    }
    Ok(out)
}

/// Stores each sink's elements, re-sorted by tag, at `tag + offset` of its
/// buffer.
pub fn write_back(
    l: &Lowered,
    run: &Outcome,
    buffers: &mut BTreeMap<usize, Vec<Scalar>>,
) -> Result<(), String> {
    for s in &l.outputs {
        let Some(p) = s.param else { continue };
        let log = run
            .sinks
            .get(&s.name)
            .ok_or(format!("no sink `{}` in the run", s.name))?;
        let buf = buffers
            .get_mut(&p)
            .ok_or(format!("no buffer bound to parameter {p}"))?;
        for t in log.stored() {
            let k = t.tag as i64 + s.offset;
            let len = buf.len();
            let slot = usize::try_from(k)
                .ok()
                .and_then(|k| buf.get_mut(k))
                .ok_or(format!(
                    "thread {} writes element {k} of parameter {p}, which has {len} elements",
                    t.tag
                ))?;
            *slot = t.value;
        }
    }
    Ok(())
}
