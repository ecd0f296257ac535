//! Which `.shared` variable each shared address points into.
//!
//! PTX addresses shared memory with integers: `mov.u32 %r, prev` is the
//! variable's offset in the block's shared window, and nvcc computes
//! `prev + 4 * tid` from it. Lowered as offsets into one window, two arrays
//! (`prev` and `result` of one kernel) look like one, and cpuify's
//! dependence tests cannot tell that a thread writing `result[tx]` and
//! another reading `prev[tx + 1]` touch different memory; the source path,
//! where they are two variables, runs those thread loops in parallel.
//!
//! An access through an address derived from `prev` must stay inside `prev`
//! (anything else is undefined in CUDA, and NVVM emits only in-bounds
//! offsets from a variable's address). So when every shared address of the
//! module is derived from exactly one variable, each variable becomes its
//! own shared global and each access indexes the one it derives from. The
//! registers keep their integer values (window offsets), so comparisons and
//! arithmetic on addresses are unchanged; only the pointer an access uses
//! changes base.
//!
//! The analysis is flow-insensitive over each function's registers (a PTX
//! register may be written in several places): a register derives from
//! variable `V` if every write to it does — `mov` of `V` or of a register
//! deriving from `V`, `add`/`sub` of one such operand and integers that
//! derive from no variable, `mad` whose addend derives from `V`, `cvt`,
//! `selp` of two. Anything else that reads a deriving register derives
//! from "several" variables. The module keeps the single window if any
//! shared address, or any `cvta` to or from the shared space, is not
//! derived from exactly one variable, or if a deriving register is stored
//! to memory or passed to a call (an address that leaves the analysis).

use super::super::ast::{Function, Operand, Stmt};
use super::super::inst::{Inst, Opcode};
use crate::ast::StateSpace;
use std::collections::HashMap;

/// Where a register's value comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Prov {
    /// From no variable's address.
    Plain,
    /// The address of a place inside this variable.
    Var(String),
    /// From more than one variable, from a variable and elsewhere, or from
    /// an address in an unknown way.
    Several,
}

/// Two writes to one register: what the register holds.
fn join(a: &Prov, b: &Prov) -> Prov {
    match (a, b) {
        (Prov::Plain, Prov::Plain) => Prov::Plain,
        (Prov::Var(x), Prov::Var(y)) if x == y => a.clone(),
        _ => Prov::Several,
    }
}

/// The registers of one function that derive from a shared variable.
struct Analysis<'a> {
    /// Is this name a static or dynamic `.shared` variable?
    shared: &'a dyn Fn(&str) -> bool,
    /// Registers written so far (a register not yet seen reads as plain:
    /// the fixpoint revisits its readers once it is written).
    regs: HashMap<String, Prov>,
}

impl Analysis<'_> {
    fn of(&self, o: &Operand) -> Prov {
        match o {
            Operand::Reg(r, _) => self.regs.get(r).cloned().unwrap_or(Prov::Plain),
            Operand::Sym(s) if (self.shared)(s) => Prov::Var(s.clone()),
            _ => Prov::Plain,
        }
    }

    /// What the value `i` writes derives from.
    fn written(&self, i: &Inst) -> Prov {
        let src = |k: usize| i.args.get(k).map_or(Prov::Plain, |o| self.of(o));
        let plain = |p: &Prov| *p == Prov::Plain;
        match i.op {
            // Loaded data, textures and the like derive from no variable
            // (an address stored and loaded back is caught at the store).
            Opcode::Ld | Opcode::Ldu | Opcode::Tex => Prov::Plain,
            // A generic address made from a window offset is checked at
            // the `cvta` itself.
            Opcode::Cvta => Prov::Plain,
            Opcode::Mov | Opcode::Cvt => src(1),
            Opcode::Add => match (src(1), src(2)) {
                (p, q) if plain(&q) => p,
                (p, q) if plain(&p) => q,
                _ => Prov::Several,
            },
            Opcode::Sub => match (src(1), src(2)) {
                (p, q) if plain(&q) => p,
                _ => Prov::Several,
            },
            Opcode::Mad => match (src(1), src(2), src(3)) {
                (a, b, p) if plain(&a) && plain(&b) => p,
                _ => Prov::Several,
            },
            Opcode::Selp => match (src(1), src(2), src(3)) {
                (a, b, c) if plain(&c) => join(&a, &b),
                _ => Prov::Several,
            },
            _ => {
                if i.args.iter().skip(1).all(|o| plain(&self.of(o))) {
                    Prov::Plain
                } else {
                    Prov::Several
                }
            }
        }
    }

    /// The registers `i` writes.
    fn dests(i: &Inst) -> Vec<&str> {
        if matches!(
            i.op,
            Opcode::St
                | Opcode::Red
                | Opcode::Bar
                | Opcode::Barrier
                | Opcode::Call
                | Opcode::Bra
                | Opcode::Brx
                | Opcode::Ret
                | Opcode::Exit
        ) {
            return Vec::new();
        }
        match i.args.first() {
            Some(Operand::Reg(r, false)) => vec![r.as_str()],
            Some(Operand::Vec(v)) => v
                .iter()
                .filter_map(|o| match o {
                    Operand::Reg(r, false) => Some(r.as_str()),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Runs to a fixpoint over the instructions.
    fn run(&mut self, insts: &[&Inst]) {
        // Each round can only move registers up the lattice (none, one
        // variable, several), so this ends.
        for _ in 0..=2 * insts.len().max(1) {
            let mut changed = false;
            for i in insts {
                let w = self.written(i);
                for d in Self::dests(i) {
                    let new = match self.regs.get(d) {
                        Some(old) => join(old, &w),
                        None => w.clone(),
                    };
                    if self.regs.get(d) != Some(&new) {
                        self.regs.insert(d.to_string(), new);
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
    }

    /// True if the address operand `o` of a shared access derives from one
    /// variable.
    fn resolved(&self, o: &Operand) -> bool {
        match o {
            Operand::Addr(b, _) => matches!(self.of(b), Prov::Var(_)),
            _ => true,
        }
    }

    /// True if every shared address of the function derives from one
    /// variable and none leaves the analysis.
    fn sound(&self, insts: &[&Inst]) -> bool {
        insts.iter().all(|i| {
            let shared = i.mods.space == Some(StateSpace::Shared);
            match i.op {
                Opcode::Cvta if shared => {
                    !i.has(crate::inst::Flag::To)
                        && matches!(i.args.get(1).map(|o| self.of(o)), Some(Prov::Var(_)))
                }
                // A deriving value stored or passed on leaves the analysis.
                Opcode::St | Opcode::Red | Opcode::Atom | Opcode::Call => {
                    (!shared || i.args.iter().all(|o| self.resolved(o)))
                        && i.args
                            .iter()
                            .filter(|o| !matches!(o, Operand::Addr(..)))
                            .flat_map(|o| match o {
                                Operand::Vec(v) | Operand::List(v) => v.iter().collect(),
                                o => vec![o],
                            })
                            .all(|o| self.of(o) == Prov::Plain)
                }
                _ => !shared || i.args.iter().all(|o| self.resolved(o)),
            }
        })
    }
}

/// For each function of the module (by name), the shared variable each
/// deriving register's address lies in — or `None` if the module must keep
/// its single window. `shared` says whether a name is a `.shared`
/// variable.
pub(super) fn split_shared(
    functions: &[Function],
    shared: &dyn Fn(&str) -> bool,
) -> Option<HashMap<String, HashMap<String, String>>> {
    let mut out = HashMap::new();
    for f in functions {
        let Some(body) = &f.body else { continue };
        let insts: Vec<&Inst> = body.iter().filter_map(Stmt::inst).collect();
        let mut a = Analysis {
            shared,
            regs: HashMap::new(),
        };
        a.run(&insts);
        if !a.sound(&insts) {
            return None;
        }
        let regs = a
            .regs
            .into_iter()
            .filter_map(|(r, p)| match p {
                Prov::Var(v) => Some((r, v)),
                Prov::Plain | Prov::Several => None,
            })
            .collect();
        out.insert(f.name.clone(), regs);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    /// A kernel with two shared arrays; `extra` is spliced into its body.
    fn kernel(extra: &str) -> String {
        format!(
            r#".version 8.0
.target sm_80
.address_size 64
.shared .align 4 .b8 a[1024];
.shared .align 4 .b8 b[1024];
.visible .entry k(.param .u64 out)
{{
.reg .b32 %r<20>;
.reg .b64 %rd<8>;
.reg .f32 %f<4>;
mov.u32 %r1, %tid.x;
shl.b32 %r2, %r1, 2;
mov.u32 %r3, a;
add.s32 %r4, %r3, %r2;
mov.u32 %r5, b;
add.s32 %r6, %r5, %r2;
ld.shared.f32 %f1, [%r4];
st.shared.f32 [%r6+4], %f1;
{extra}
ret;
}}
"#
        )
    }

    fn globals(extra: &str) -> Vec<String> {
        let m = crate::lower_ptx(&kernel(extra), "t.ptx").expect("lowers");
        m.globals.iter().map(|(_, g)| g.name.clone()).collect()
    }

    #[test]
    fn each_variable_gets_its_own_global() {
        assert_eq!(globals(""), ["a", "b"]);
        // A loop-carried address: `%r4` is still inside `a`.
        assert_eq!(
            globals("add.s32 %r4, %r4, 4;\nld.shared.f32 %f2, [%r4];"),
            ["a", "b"]
        );
    }

    #[test]
    fn the_window_stays_when_an_address_is_not_one_variables() {
        let window = [super::super::SHARED_WINDOW];
        // An address that derives from both variables.
        assert_eq!(
            globals("add.s32 %r7, %r4, %r6;\nld.shared.f32 %f2, [%r7];"),
            window
        );
        // A register that is an address in one place and loaded data in
        // another.
        assert_eq!(
            globals("ld.global.u32 %r4, [%rd1];\nld.shared.f32 %f2, [%r4];"),
            window
        );
        // An address stored to memory leaves the analysis.
        assert_eq!(globals("st.global.u32 [%rd1], %r4;"), window);
        // A generic address turned back into a shared one.
        assert_eq!(globals("cvta.to.shared.u64 %rd2, %rd1;"), window);
        // An absolute window offset.
        assert_eq!(globals("ld.shared.f32 %f2, [16];"), window);
    }
}
