//! The IR verifier: checks that a module is well formed before a pass, the
//! interpreter or the C emitter relies on it.
//!
//! Every check reports into one list, so a single run shows every problem.
//! Checks never panic, whatever the IR: `handles.rs` runs first and the other
//! checks of a function only run once its handles are sound.
//!
//! # Invariants
//!
//! **Handles** (`handles.rs`): every region, op, value, type, global and
//! function handle the IR mentions is in range; every op appears in exactly
//! one region reachable from the body; every region is owned by exactly one
//! op or is the body; a value's `def` agrees with the op result or region
//! argument list it appears in. The type table refers only backwards (a type
//! mentions only types interned before it), so layouts are computable.
//!
//! **Types** (`types.rs`): integer widths are 1, 8, 16, 32 or 64; structs have
//! a power-of-two alignment, a size that is a multiple of it, fields that are
//! aligned and lie within the size; array sizes do not overflow; struct
//! names are unique. SSA values (parameters, region arguments, op results)
//! have scalar types.
//!
//! **Op shapes** (`ops.rs`, `gpu.rs`, `calls.rs`, `control.rs`): each op has the
//! operand, result and region counts and types documented on
//! [`OpKind`](crate::OpKind); region arguments match the structured op
//! (`for`: iv and carried values of the lb and init types; `parallel`: one
//! iv per upper bound, 1 to 3 of one integer type; `while`: before takes
//! the init types, after the result types; `if`: none). Calls name a device
//! function or a known extern with matching argument and result types.
//!
//! **Terminators** (`control.rs`): every region ends with exactly one
//! terminator and has none elsewhere. `yield` ends `if`, `for`, `parallel`
//! and `while`-after regions with the op's result types (the carried types
//! for `for` and `while`-after, nothing for `parallel`); `condition` (an
//! `i1`, then values of the `while`'s result types) ends only a `while`
//! before-region; `return` ends only the body, with the function's result
//! types.
//!
//! **Dominance** (`dominance.rs`): a value is used after its definition in the
//! same region or in regions nested below the defining region; region
//! arguments are visible inside their region only; no op uses its own result.
//!
//! **Module items** (`items.rs`): function and global names are unique; a
//! function has one parameter attribute per body argument; `byval` only on
//! pointer parameters, naming a struct or array; kernels and launch
//! functions return nothing. Globals: variables live in global, constant or
//! shared space; `init` has exactly `size_of(ty)` bytes; shared globals have
//! no `init`; textures have 1 to 3 dimensions and a scalar element type.
//!
//! **Placement** (`placement.rs`): `parallel` ops and shared `alloca`s appear
//! only in launch functions. There, grid parallels are outermost; block and
//! warp parallels sit inside a grid parallel and inside no other block,
//! warp or lane parallel; lane parallels sit directly in a warp parallel;
//! shared allocas run in a grid iteration outside any block, warp or lane
//! parallel. Block barriers and `barrier.reduce` need an enclosing block or
//! warp parallel; warp barriers, shuffles, votes and `activemask` need an
//! enclosing lane parallel or a block parallel (whose implicit warps they
//! bind to). `thread_id`, `block_id` and `lane_id` do not occur in launch
//! functions, which read parallel ivs instead. Calls name device functions
//! only.

mod calls;
mod control;
mod dominance;
mod gpu;
mod handles;
mod items;
mod ops;
mod placement;
mod types;

#[cfg(test)]
mod tests;

use crate::func::{Function, Op};
use crate::loc::Loc;
use crate::module::{FuncId, Module};
use crate::types::TypeId;
use handles::Layout;
use std::fmt;

/// One violated invariant, with where it was found.
#[derive(Clone, Debug, PartialEq)]
pub struct VerifyError {
    /// The function it is in, if any.
    pub function: Option<String>,
    /// The offending op, if the error is about one.
    pub op: Option<Op>,
    /// That op's mnemonic, for the message.
    pub mnemonic: Option<&'static str>,
    /// Source location of the op, function or global.
    pub loc: Loc,
    /// `loc` as `file:line:col` (from [`Module::describe_loc`]), when known.
    pub position: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(pos) = &self.position {
            write!(f, "{pos}: ")?;
        }
        if let Some(name) = &self.function {
            write!(f, "in @{name}: ")?;
        }
        if let Some(m) = self.mnemonic {
            write!(f, "{m}: ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for VerifyError {}

/// Every violated invariant found in one run, in discovery order (never empty).
#[derive(Clone, Debug, PartialEq)]
pub struct VerifyErrors {
    /// The errors.
    pub errors: Vec<VerifyError>,
}

impl VerifyErrors {
    /// The errors' messages rendered as [`VerifyError`]'s `Display` does.
    pub fn messages(&self) -> Vec<String> {
        self.errors.iter().map(ToString::to_string).collect()
    }
}

impl fmt::Display for VerifyErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.errors.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for VerifyErrors {}

/// Checks every invariant listed in the [module docs](self) on the whole module.
pub fn verify_module(module: &Module) -> Result<(), VerifyErrors> {
    let mut errors = Vec::new();
    let types_sound = types::check_table(module, &mut errors);
    items::check_globals(module, types_sound, &mut errors);
    items::check_unique_function_names(module, &mut errors);
    if types_sound {
        for id in module.functions.handles() {
            check_function(module, id, &mut errors);
        }
    }
    finish(errors)
}

/// Checks one function (and the type table it depends on).
pub fn verify_function(module: &Module, id: FuncId) -> Result<(), VerifyErrors> {
    let mut errors = Vec::new();
    if !module.functions.contains(id) {
        errors.push(plain(format!(
            "function handle {} is out of range ({} functions)",
            id.index(),
            module.functions.len()
        )));
        return finish(errors);
    }
    if types::check_table(module, &mut errors) {
        check_function(module, id, &mut errors);
    }
    finish(errors)
}

fn finish(errors: Vec<VerifyError>) -> Result<(), VerifyErrors> {
    if errors.is_empty() {
        Ok(())
    } else {
        Err(VerifyErrors { errors })
    }
}

/// An error about nothing in particular (the module, a type).
fn plain(message: String) -> VerifyError {
    VerifyError {
        function: None,
        op: None,
        mnemonic: None,
        loc: Loc::UNKNOWN,
        position: None,
        message,
    }
}

/// An error at a source location of `module` (a global's, say).
fn located(module: &Module, loc: Loc, message: String) -> VerifyError {
    VerifyError {
        position: (!loc.is_unknown()).then(|| module.describe_loc(loc)),
        loc,
        ..plain(message)
    }
}

/// Runs the per-function checks; the type table is known to be sound.
fn check_function(module: &Module, id: FuncId, errors: &mut Vec<VerifyError>) {
    let func = &module.functions[id];
    let before = errors.len();
    let layout = handles::check(module, func, errors);
    let Some(layout) = layout.filter(|_| errors.len() == before) else {
        return;
    };
    let mut cx = FuncCx {
        module,
        func,
        layout,
        errors,
    };
    items::check_signature(&mut cx);
    if func.linkage == crate::module::Linkage::Import {
        // A declaration: only its signature is checked.
        items::check_declaration(&mut cx);
        return;
    }
    types::check_values(&mut cx);
    ops::check(&mut cx);
    control::check_terminators(&mut cx);
    dominance::check(&mut cx);
    placement::check(&mut cx);
}

/// What the checks of one function share: the IR, its layout (who holds
/// what) and the error list.
struct FuncCx<'a> {
    module: &'a Module,
    func: &'a Function,
    layout: Layout,
    errors: &'a mut Vec<VerifyError>,
}

impl<'a> FuncCx<'a> {
    /// Reports an error about the function as a whole.
    fn func_error(&mut self, message: String) {
        let mut e = located(self.module, self.func.loc, message);
        e.function = Some(self.func.name.clone());
        self.errors.push(e);
    }

    /// Reports an error about `op`.
    fn op_error(&mut self, op: Op, message: String) {
        let data = &self.func.ops[op];
        let mut e = located(self.module, data.loc, message);
        e.function = Some(self.func.name.clone());
        e.op = Some(op);
        e.mnemonic = Some(data.kind.mnemonic());
        self.errors.push(e);
    }

    /// The type of a value.
    fn ty(&self, v: crate::func::Value) -> TypeId {
        self.func.values[v].ty
    }

    /// A type as the text format prints it.
    fn show(&self, ty: TypeId) -> String {
        self.module.types.display(ty).to_string()
    }

    /// Types as a parenthesised list: `(i32, f32)`.
    fn show_list(&self, tys: &[TypeId]) -> String {
        let parts: Vec<String> = tys.iter().map(|&t| self.show(t)).collect();
        format!("({})", parts.join(", "))
    }
}

/// `n thing` or `n things`.
fn plural(n: usize, thing: &str) -> String {
    if n == 1 {
        format!("{n} {thing}")
    } else {
        format!("{n} {thing}s")
    }
}
