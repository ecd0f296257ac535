//! `branch-free` (after `speculate`): an `if` that chooses the values a
//! serial `while` loop carries to its next iteration becomes `select`s,
//! which the C emitter writes without branches (`emit_c::select`).
//!
//! The `while` loops of a kernel are its per-thread serial work. In a
//! search (`if (v < p[mid]) hi = mid; else lo = mid + 1;`) the data decide
//! the next range, so the branch is mispredicted about every other time,
//! and gcc keeps it a branch (it threads the loop's exit test through both
//! arms rather than using a conditional move). As selects the arms' few
//! operations always run and the loop has no data-dependent branch left
//! but its exit: hybridsort's bucket search ran about 1.8x faster.
//!
//! An `if` is converted when it stands directly in a `while` region, its
//! results are used only as the values the loop carries (operands of the
//! region's `yield`, or of its `condition` after the test) or are all
//! booleans (short-circuit logic, `a || (b && c)`, which becomes `and`s
//! and `or`s), and each arm
//! holds at most [`BUDGET`] operations (constants free) that cannot trap —
//! no loads, calls, divisions or shifts by a variable — nor have other
//! effects. The arms' operations move in front of the `if`, their `nsw`
//! flags dropped (they may now run on values the source never computed
//! them with). Other `if`s are left to gcc: a predictable choice costs
//! more as a select (hybridsort's `k == 0 ? v.x : ...` over `k = i & 3`
//! ran slower as masks).
//!
//! Not converted either: an `if` whose condition is computed from a
//! boolean the loop carries — the frontends' form of `break` (`if (k <
//! end) break; node = child;`). Such a branch changes once per loop and is
//! predicted; as a select it makes the next iteration's address wait for
//! the exit test's operands (mummergpu's tree walk, whose exit test reads
//! a node that missed the cache, ran 1.7x slower).

use crate::passes::entry::{launch_parts, Changed};
use crate::passes::predicate_barriers::{constant_shift, speculable};
use crate::remarks::Remarks;
use cucc_ir::edit::replace_all_uses;
use cucc_ir::{
    ArithFlags, BinOp, Builder, FuncId, Function, Loc, Module, Op, OpKind, Region, Type, Types,
    Value, ValueDef,
};

/// Operations (constants free) an arm may hold and still run
/// unconditionally.
pub const BUDGET: usize = 4;

/// Converts the small `if`s of the `while` loops of `fid` (launch form);
/// returns how many became selects.
pub fn branch_free(module: &mut Module, fid: FuncId, remarks: &mut Remarks) -> Changed {
    let Some((types, func)) = launch_parts(module, fid) else {
        return Ok(0);
    };
    let mut c = Converter {
        types,
        func,
        flags: Vec::new(),
        made: Vec::new(),
        refused: Vec::new(),
    };
    let body = c.func.body;
    c.region(body, false);
    let name = c.func.name.clone();
    let total = c.made.len();
    for (loc, n) in c.made {
        remarks.add(
            "branch-free",
            &name,
            loc,
            format!("`if` in a `while` loop made selects: {n} op(s) now run unconditionally"),
        );
    }
    for (loc, why) in c.refused {
        remarks.add(
            "branch-free",
            &name,
            loc,
            format!("`if` in a `while` loop kept: {why}"),
        );
    }
    Ok(total)
}

struct Converter<'a> {
    types: &'a mut Types,
    func: &'a mut Function,
    /// The `i1` region arguments of the innermost enclosing `while`.
    flags: Vec<Value>,
    /// Converted `if`s: location and operations moved out of the arms.
    made: Vec<(Loc, usize)>,
    /// `if`s yielding values that were kept, and why.
    refused: Vec<(Loc, &'static str)>,
}

impl Converter<'_> {
    /// Converts the regions nested in `r`, and the `if`s of `r` itself
    /// when it is a region of a `while` (`loop_region`).
    fn region(&mut self, r: Region, loop_region: bool) {
        let mut i = 0;
        while i < self.func.regions[r].ops.len() {
            let op = self.func.regions[r].ops[i];
            let inner = self.func.ops[op].kind == OpKind::While;
            let saved = if self.func.ops[op].kind == OpKind::While {
                let flags = self.loop_flags(op);
                Some(std::mem::replace(&mut self.flags, flags))
            } else {
                None
            };
            for sub in self.func.ops[op].regions.clone() {
                self.region(sub, inner);
            }
            if let Some(saved) = saved {
                self.flags = saved;
            }
            if loop_region && self.func.ops[op].kind == OpKind::If {
                i += self.convert(r, op);
            } else {
                i += 1;
            }
        }
    }

    /// Tries `if` `op` of `r`; returns how many ops now stand where it
    /// stood.
    fn convert(&mut self, r: Region, op: Op) -> usize {
        let data = &self.func.ops[op];
        if data.results.is_empty() || data.regions.len() != 2 {
            return 1;
        }
        let loc = data.loc;
        let arms = data.regions.clone();
        let used = cucc_ir::edit::uses(self.func);
        let term = self.func.regions[r].ops.last().copied();
        let carried = term.is_some_and(|t| {
            data.results
                .iter()
                .all(|&v| only_carried(self.func, &used, v, t))
        });
        let logic = data
            .results
            .iter()
            .all(|&v| self.types[self.func.value_type(v)] == Type::Int(1));
        if !(carried || logic) {
            self.refused.push((
                loc,
                "its results are not only values the loop carries to its next iteration",
            ));
            return 1;
        }
        if self.computed_from_flags(data.cond()) {
            self.refused.push((
                loc,
                "its condition is computed from a flag the loop carries (a `break`)",
            ));
            return 1;
        }
        let mut moved = Vec::new();
        for &arm in &arms {
            let ops = &self.func.regions[arm].ops;
            let Some((&term, body)) = ops.split_last() else {
                return 1;
            };
            if self.func.ops[term].kind != OpKind::Yield {
                return 1;
            }
            if let Err(why) = self.hoistable(body) {
                if why != "an arm has effects" {
                    self.refused.push((loc, why));
                }
                return 1;
            }
            moved.extend_from_slice(body);
        }
        let yields: Vec<Vec<Value>> = arms
            .iter()
            .filter_map(|&s| self.func.regions[s].ops.last())
            .map(|&y| self.func.ops[y].values().to_vec())
            .collect();
        let results = self.func.ops[op].results.clone();
        if yields.len() != 2 || yields.iter().any(|y| y.len() != results.len()) {
            return 1;
        }
        let cost = moved.iter().filter(|&&o| self.costs(o)).count();
        for &o in &moved {
            if let OpKind::Binary(_, flags) = &mut self.func.ops[o].kind {
                *flags = ArithFlags::NONE;
            }
        }
        for &arm in &arms {
            let term = self.func.regions[arm].ops.last().copied();
            self.func.regions[arm].ops.retain(|&o| Some(o) == term);
        }
        let cond = self.func.ops[op].cond();
        self.func.insert_before(r, op, moved.iter().copied());
        let mut b = Builder::new(self.types, self.func);
        b.set_loc(loc);
        b.set_insertion_before(r, op);
        let sels: Vec<Value> = (0..results.len())
            .map(|k| select(&mut b, cond, yields[0][k], yields[1][k]))
            .collect();
        for (&old, &new) in results.iter().zip(&sels) {
            replace_all_uses(self.func, old, new);
        }
        self.func.unlink_op(r, op);
        self.made.push((loc, cost));
        moved.len() + sels.len()
    }

    /// Whether the operations of an arm (its terminator left out) may all
    /// run unconditionally within the budget, or why not.
    fn hoistable(&self, ops: &[Op]) -> Result<(), &'static str> {
        let mut cost = 0;
        for &o in ops {
            let kind = &self.func.ops[o].kind;
            let cheap = (speculable(self.func, o) || constant_shift(self.types, self.func, o))
                && !matches!(kind, OpKind::Alloca { .. } | OpKind::AllocDistinct);
            if !cheap {
                let effects = !kind.is_pure()
                    && !matches!(
                        kind,
                        OpKind::Load {
                            volatile: false,
                            ..
                        } | OpKind::TexFetch(_)
                    );
                return Err(if effects || !self.func.ops[o].regions.is_empty() {
                    "an arm has effects"
                } else if matches!(kind, OpKind::Load { .. } | OpKind::TexFetch(_)) {
                    "an arm reads memory"
                } else {
                    "an arm holds an operation that may trap (a division, a shift by a variable)"
                });
            }
            if self.costs(o) {
                cost += 1;
            }
        }
        if cost > BUDGET {
            return Err("an arm holds more than 4 operations");
        }
        Ok(())
    }

    /// The `i1` arguments of the regions of `while` `op`.
    fn loop_flags(&self, op: Op) -> Vec<Value> {
        let mut out = Vec::new();
        for &r in &self.func.ops[op].regions {
            for &a in &self.func.regions[r].args {
                if self.types[self.func.value_type(a)] == Type::Int(1) {
                    out.push(a);
                }
            }
        }
        out
    }

    /// True if `v` is computed, through pure ops and `if` results, from one
    /// of [`Self::flags`].
    fn computed_from_flags(&self, v: Value) -> bool {
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![v];
        while let Some(v) = stack.pop() {
            if !seen.insert(v) || seen.len() > 256 {
                continue;
            }
            if self.flags.contains(&v) {
                return true;
            }
            let ValueDef::Result { op, index } = self.func.values[v].def else {
                continue;
            };
            let data = &self.func.ops[op];
            match data.kind {
                OpKind::If => {
                    stack.extend(data.operands.iter().copied());
                    for &r in &data.regions {
                        let y = self.func.regions[r].ops.last();
                        if let Some(&x) =
                            y.and_then(|&y| self.func.ops[y].values().get(index as usize))
                        {
                            stack.push(x);
                        }
                    }
                }
                ref k if k.is_pure() => stack.extend(data.operands.iter().copied()),
                _ => {}
            }
        }
        false
    }

    /// True unless `o` is free when it runs unconditionally (a constant).
    fn costs(&self, o: Op) -> bool {
        !matches!(self.func.ops[o].kind, OpKind::Const { .. } | OpKind::Undef)
    }
}

/// `select(c, x, y)`, as `and`/`or` when it is one on `i1`s.
fn select(b: &mut Builder<'_>, c: Value, x: Value, y: Value) -> Value {
    let bool_const = |b: &Builder<'_>, v: Value| {
        (b.types[b.func.value_type(v)] == Type::Int(1))
            .then(|| b.func.const_bits(v))
            .flatten()
            .map(|bits| bits & 1 == 1)
    };
    match (bool_const(b, x), bool_const(b, y)) {
        (Some(true), Some(false)) => c,
        (_, Some(false)) => b.binary(BinOp::And, c, x),
        (Some(true), _) => b.binary(BinOp::Or, c, y),
        _ => b.select(c, x, y),
    }
}

/// True if every use of `v` is a carried operand of `term`, the
/// terminator of a `while` region (any operand of a `yield`, an operand
/// after the test of a `condition`).
pub fn only_carried(
    func: &Function,
    used: &std::collections::HashMap<Value, Vec<(Op, usize)>>,
    v: Value,
    term: Op,
) -> bool {
    let Some(list) = used.get(&v) else {
        return false;
    };
    let carried_pos = |pos: usize| match func.ops[term].kind {
        OpKind::Yield => true,
        OpKind::Condition => pos >= 1,
        _ => false,
    };
    !matches!(func.values[v].def, ValueDef::Arg { .. })
        && list
            .iter()
            .all(|&(user, pos)| user == term && carried_pos(pos))
}
