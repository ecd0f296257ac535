//! A `while` whose trip count the compiler can work out: every value it
//! carries is an integer stepped by a constant each trip from a known
//! start (the launch shape and integer arguments are constants), so the
//! condition can be evaluated trip by trip at compile time. nvcc rotates
//! loops into this shape (the body before the test, counting down to
//! zero), and cpuify's barrier fission keeps it: the `before` region holds
//! the thread loops, the `after` region the copies of the values that
//! cross the test. It runs as a counted loop of `before; after`, then
//! `before` once more (the trip whose test fails). When the values do not
//! move by constant steps (a tree reduction's `s >>= 1`), up to 64 trips
//! are unrolled instead, each with its values as constants.

use super::super::lir::{Affine, Count, Loop, Node, Var};
use super::super::Diagnostic;
use super::Lowerer;
use cucc_ir::{Op, OpKind, Value};

/// Trips beyond which the compiler gives up evaluating a condition.
const MAX_TRIPS: usize = 1 << 16;
/// Trips of a loop whose values do not move by constant steps that are
/// unrolled (a reduction's `s >>= 1` takes a handful).
const MAX_UNROLLED: usize = 64;

impl Lowerer<'_> {
    pub(super) fn while_loop(&mut self, op: Op, body: &mut Vec<Node>) -> Result<(), Diagnostic> {
        let data = &self.func.ops[op];
        let loc = data.loc;
        let reject = |s: &Self, why: &str| {
            s.err(
                loc,
                "while",
                format!(
                    "while loops have no trip count; streams and FREP need counted loops ({why})"
                ),
            )
        };
        let [before, after] = data.regions[..] else {
            return Err(self.err(loc, "while", "malformed op"));
        };
        let inits = data.operands.clone();
        let results = data.results.clone();
        let bargs = self.func.regions[before].args.clone();
        let aargs = self.func.regions[after].args.clone();
        let Some(&cond_op) = self.func.regions[before].ops.last() else {
            return Err(self.err(loc, "while", "malformed op"));
        };
        let Some(&after_yield) = self.func.regions[after].ops.last() else {
            return Err(self.err(loc, "while", "malformed op"));
        };
        let cond = self.func.ops[cond_op].operands.clone();
        let yielded = self.func.ops[after_yield].operands.clone();
        let Some((&c, forwarded)) = cond.split_first() else {
            return Err(self.err(loc, "while", "malformed op"));
        };
        if forwarded.len() != aargs.len() || yielded.len() != bargs.len() {
            return Err(self.err(loc, "while", "malformed op"));
        }
        if bargs.iter().chain(&aargs).any(|&a| !self.ty(a).is_int()) {
            return Err(reject(self, "it carries a value other than an integer"));
        }
        // Evaluate trip by trip: the carried values into `before`, and
        // what `before` hands to `after`.
        let mut into_before: Vec<Vec<i64>> = Vec::new();
        let mut into_after: Vec<Vec<i64>> = Vec::new();
        let mut now = Vec::new();
        for &v in &inits {
            now.push(
                self.constant(v)
                    .ok_or_else(|| reject(self, "its start is not known"))?,
            );
        }
        loop {
            if into_before.len() > MAX_TRIPS {
                return Err(reject(self, "more than 65536 trips"));
            }
            into_before.push(now.clone());
            self.forget(before);
            self.forget(after);
            for (&a, &v) in bargs.iter().zip(&now) {
                self.ints.insert(a, Affine::constant(v));
            }
            let Some(go) = self.condition(c) else {
                return Err(reject(self, "its condition is not known at compile time"));
            };
            let mut fwd = Vec::new();
            for &v in forwarded {
                fwd.push(
                    self.constant(v)
                        .ok_or_else(|| reject(self, "a carried value is not known"))?,
                );
            }
            if !go {
                into_after.push(fwd);
                break;
            }
            for (&a, &v) in aargs.iter().zip(&fwd) {
                self.ints.insert(a, Affine::constant(v));
            }
            into_after.push(fwd);
            let mut next = Vec::new();
            for &v in &yielded {
                next.push(
                    self.constant(v)
                        .ok_or_else(|| reject(self, "a carried value is not known"))?,
                );
            }
            now = next;
        }
        self.forget(before);
        self.forget(after);
        let trips = into_before.len() - 1;
        // Each carried value must move by a constant step.
        let steps = |seq: &[Vec<i64>]| -> Option<Vec<i64>> {
            let first = seq.first()?;
            let step: Vec<i64> = match seq.get(1) {
                Some(second) => first.iter().zip(second).map(|(a, b)| b - a).collect(),
                None => vec![0; first.len()],
            };
            for (i, vals) in seq.iter().enumerate() {
                for (k, &v) in vals.iter().enumerate() {
                    if v != first[k] + step[k] * i as i64 {
                        return None;
                    }
                }
            }
            Some(step)
        };
        let (Some(bstep), Some(astep)) = (steps(&into_before), steps(&into_after)) else {
            // A few trips of another progression (`s >>= 1`) are unrolled,
            // each with its values as constants.
            if trips > MAX_UNROLLED {
                return Err(reject(
                    self,
                    "a carried integer does not move by a constant step, and it runs more than 64 trips",
                ));
            }
            for i in 0..=trips {
                for (&a, &v) in bargs.iter().zip(&into_before[i]) {
                    self.ints.insert(a, Affine::constant(v));
                }
                body.extend(self.region_but_last(before)?);
                self.forget(before);
                if i < trips {
                    for (&a, &v) in aargs.iter().zip(&into_after[i]) {
                        self.ints.insert(a, Affine::constant(v));
                    }
                    body.extend(self.region_but_last(after)?);
                    self.forget(after);
                }
            }
            for (&r, &v) in results.iter().zip(&into_after[trips]) {
                self.ints.insert(r, Affine::constant(v));
            }
            return Ok(());
        };
        let at = |seq: &[Vec<i64>], step: &[i64], k: usize, l: Option<u32>| -> Affine {
            match l {
                Some(id) if step[k] != 0 => Affine {
                    constant: seq[0][k],
                    terms: vec![(Var::Loop(id), step[k])],
                },
                Some(_) => Affine::constant(seq[0][k]),
                None => Affine::constant(seq[0][k] + step[k] * trips as i64),
            }
        };
        if trips > 0 {
            let id = self.out.new_loop();
            let n = u32::try_from(trips).map_err(|_| reject(self, "too many trips"))?;
            self.counts.insert(id, n);
            for (k, &a) in bargs.iter().enumerate() {
                let v = at(&into_before, &bstep, k, Some(id));
                self.ints.insert(a, v);
            }
            let mut inner = self.region_but_last(before)?;
            for (k, &a) in aargs.iter().enumerate() {
                let v = at(&into_after, &astep, k, Some(id));
                self.ints.insert(a, v);
            }
            inner.extend(self.region_but_last(after)?);
            body.push(Node::Loop(Loop {
                id,
                count: Count::Static(n),
                body: inner,
                frep: false,
                ctl: None,
            }));
            self.forget(before);
            self.forget(after);
        }
        // The last trip: `before` alone, with the values it ends with.
        for (k, &a) in bargs.iter().enumerate() {
            let v = at(&into_before, &bstep, k, None);
            self.ints.insert(a, v);
        }
        body.extend(self.region_but_last(before)?);
        for (k, &r) in results.iter().enumerate() {
            let v = at(&into_after, &astep, k, None);
            self.ints.insert(r, v);
        }
        Ok(())
    }

    /// The constant integer `v` is, if it is one.
    fn constant(&mut self, v: Value) -> Option<i64> {
        let loc = self.func.loc;
        self.affine(v, loc).ok()?.as_constant()
    }

    /// Lowers `region` but its terminator.
    fn region_but_last(&mut self, region: cucc_ir::Region) -> Result<Vec<Node>, Diagnostic> {
        let ops = self.func.regions[region].ops.clone();
        let mut out = Vec::new();
        for &op in ops.iter().take(ops.len().saturating_sub(1)) {
            if matches!(self.func.ops[op].kind, OpKind::Condition | OpKind::Yield) {
                continue;
            }
            self.op(op, &mut out)?;
        }
        Ok(out)
    }
}
