//! `grid-no-wrap`: a global thread loop whose body indexes memory through
//! 32-bit sums `u + x` of its innermost coordinate runs, when a run-time
//! check shows no such sum can wrap, as a copy whose sums are `nsw`.
//!
//! PTX adds wrap (`add.s32` says nothing about overflow), so the JIT's
//! `sext(x + t)` is not `sext(x) + sext(t)` to the C compiler, and an
//! address built from it is not affine in the loop counter: gcc neither
//! vectorises nor strength-reduces the loop (gaussian's elimination kernel
//! built by nvcc ran 4.6 times slower than the one built from source,
//! where clang marks the same sum `nsw`). With `x < ub` and `x >= 0`, the
//! sum stays in range exactly when `sext(u) + ub - 1 <= MAX`
//! ([`no_wrap::condition`]), one comparison per distinct `u` before the
//! loop. Block-level thread loops get the same check where
//! `serialize-inner` or `interchange` version them.

use crate::passes::entry::{launch_parts, Changed};
use crate::passes::launch_form::parallels;
use crate::passes::no_wrap;
use crate::remarks::Remarks;
use cucc_ir::edit::clone_op;
use cucc_ir::{Builder, FuncId, Level, Module, OpKind};
use std::collections::HashMap;

/// Name in remarks and the pipeline.
const PASS: &str = "grid-no-wrap";

/// Versions every global thread loop of function `fid` (launch form) that
/// has wrapping `u + x` index sums; returns how many.
pub fn grid_no_wrap(module: &mut Module, fid: FuncId, remarks: &mut Remarks) -> Changed {
    let Some((types, func)) = launch_parts(module, fid) else {
        return Ok(0);
    };
    // Collapsed grids only: a block loop's body (the blocks' ids as
    // indices) is the whole kernel, not worth a second copy.
    let loops: Vec<_> = parallels(func, Level::Grid)
        .into_iter()
        .filter(|&(_, o)| crate::passes::collapse::nd_shape(func, o).is_some())
        .collect();
    let mut done = 0;
    for (region, p) in loops {
        let adds = no_wrap::index_ops(types, func, p);
        let Some(cond) = no_wrap::condition(types, func, region, p, &adds) else {
            continue;
        };
        let loc = func.ops[p].loc;
        let Some(at) = func.find_op(region, p) else {
            continue;
        };
        let (then_r, else_r) = {
            let mut b = Builder::new(types, func);
            b.set_loc(loc);
            b.set_insertion_at(region, at);
            let (_, t, e) = b.create_if(cond, &[]);
            (t, e)
        };
        let mut map = HashMap::new();
        let copy = clone_op(func, p, &mut map);
        no_wrap::flag_copies(func, &map, &adds);
        func.regions[region].ops.retain(|&o| o != p);
        for (r, op) in [(then_r, copy), (else_r, p)] {
            let y = func.new_op(OpKind::Yield, vec![], &[], vec![], loc);
            func.regions[r].ops.extend([op, y]);
        }
        done += 1;
        remarks.add_on(
            PASS,
            func,
            loc,
            format!(
                "global thread loop runs a copy whose {} 32-bit index op(s) are `nsw` when a run-time check shows they cannot wrap",
                adds.len()
            ),
        );
    }
    Ok(done)
}
