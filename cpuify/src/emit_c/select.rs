//! `select`s written without branches. A `select` that picks the next
//! value a `while` loop carries (`lo = c ? lo : mid + 1`, the `branch-free`
//! pass's output) becomes a branch once gcc threads the loop's exit test
//! through it, and the branch is mispredicted whenever the data decide; the
//! mask form `(a & m) | (b & ~m)`, `m = -(T)c`, is not. Every other select
//! stays a ternary: in thread and `for` loops gcc's vectoriser reads it as
//! a vector select, and elsewhere gcc's own if-conversion chooses (a
//! predictable choice, hybridsort's `k == 0 ? v.x : ...` over `k = i & 3`,
//! ran slower as masks).

use crate::passes::branch_free::only_carried;
use cucc_ir::edit::uses;
use cucc_ir::{Function, Op, OpKind};
use std::collections::HashSet;

/// The `select`s of `func` whose result is used only as a value a `while`
/// loop carries to its next iteration (an operand of the terminator of the
/// loop region the select is in, not the exit test).
pub fn carried_by_while(func: &Function) -> HashSet<Op> {
    let used = uses(func);
    let mut out = HashSet::new();
    for (_, op) in func.walk() {
        if func.ops[op].kind != OpKind::While {
            continue;
        }
        for &r in &func.ops[op].regions {
            let Some(&term) = func.regions[r].ops.last() else {
                continue;
            };
            for &sel in &func.regions[r].ops {
                if func.ops[sel].kind != OpKind::Select {
                    continue;
                }
                let v = func.ops[sel].results[0];
                if only_carried(func, &used, v, term) {
                    out.insert(sel);
                }
            }
        }
    }
    out
}

/// `c ? a : b` on C type `cty` as mask arithmetic, or `None` for a type
/// without an integer view.
pub fn masked(cty: &str, c: &str, a: &str, b: &str) -> Option<String> {
    Some(match cty {
        "bool" => format!("(bool)(({c} & {a}) | (!{c} & {b}))"),
        "uint8_t" | "uint16_t" | "uint32_t" | "uint64_t" => {
            format!("({cty})(({a} & -({cty}){c}) | ({b} & ~-({cty}){c}))")
        }
        "char *" => format!(
            "(char *)(((uintptr_t){a} & -(uintptr_t){c}) | ((uintptr_t){b} & ~-(uintptr_t){c}))"
        ),
        "float" => format!(
            "cucc_bits_f32((cucc_f32_bits({a}) & -(uint32_t){c}) | (cucc_f32_bits({b}) & ~-(uint32_t){c}))"
        ),
        "double" => format!(
            "cucc_bits_f64((cucc_f64_bits({a}) & -(uint64_t){c}) | (cucc_f64_bits({b}) & ~-(uint64_t){c}))"
        ),
        _ => return None,
    })
}
