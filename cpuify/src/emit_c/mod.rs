//! `emit_c`: launch-form kernels to C11.
//!
//! Each launch-form function becomes an entry with the ABI the runtime calls
//! (`docs/abi.md`):
//!
//! ```c
//! void NAME__cucc(void **args, const cucc_launch *launch,
//!                 uint32_t block_begin, uint32_t block_end, void *scratch);
//! ```
//!
//! The grid-level `parallel` becomes the loop over the linear block ids
//! `block_begin..block_end`; block, warp and lane loops become plain nested
//! `for` loops with x innermost, so gcc can vectorise them; shared allocas
//! are slices of `scratch`, zeroed at the start of every block. Every IR op
//! is one C statement declaring one variable, named after the source
//! variable where known. Integers are held in unsigned C types (IR integers
//! are signless and wrap); signed ops cast explicitly.
//!
//! The emitter accepts what cpuify leaves: no barrier, shuffle or vote may
//! remain, and ops outside the grid loop must be free of side effects.

mod prelude;
mod writer;

pub use writer::{emit_function, EmittedKernel};

use crate::error::CpuifyError;
use cucc_ir::{FunctionKind, Module, Space};
use std::fmt::Write;

/// A C translation unit for a module's kernels.
#[derive(Clone, Debug)]
pub struct EmittedModule {
    /// The C source.
    pub c: String,
    /// One entry per launch-form function.
    pub kernels: Vec<EmittedKernel>,
}

/// Emits every launch-form function of `module` (and the device and constant
/// globals they use) as one C file.
pub fn emit_module(module: &Module) -> Result<EmittedModule, CpuifyError> {
    let mut c = String::from(prelude::PRELUDE);
    c.push('\n');
    for (_, g) in module.globals.iter() {
        if g.space == Space::Shared || !matches!(g.kind, cucc_ir::GlobalKind::Variable) {
            continue;
        }
        let size = module.types.size_of(g.ty).max(1);
        let align = module.types.align_of(g.ty).max(1);
        let _ = write!(
            c,
            "unsigned char {}[{size}] __attribute__((aligned({align})))",
            global_c_name(&g.name)
        );
        if let Some(init) = &g.init {
            c.push_str(" = {");
            for (i, byte) in init.iter().enumerate() {
                if i % 16 == 0 {
                    c.push_str("\n  ");
                }
                let _ = write!(c, "{byte},");
            }
            c.push_str("\n}");
        }
        c.push_str(";\n");
    }
    let mut kernels = Vec::new();
    for (fid, f) in module.functions.iter() {
        if f.kind != FunctionKind::Launch {
            continue;
        }
        let (text, info) = emit_function(module, fid)?;
        c.push('\n');
        c.push_str(&text);
        kernels.push(info);
    }
    Ok(EmittedModule { c, kernels })
}

/// The C symbol holding a device or constant global's storage.
pub fn global_c_name(name: &str) -> String {
    format!("cucc_g_{}", sanitize(name))
}

/// The C symbol of a kernel's entry.
pub fn entry_c_name(name: &str) -> String {
    format!("{}__cucc", sanitize(name))
}

/// Keeps `[A-Za-z0-9_]`, maps everything else to `_`, and avoids a leading
/// digit or a reserved `__`/`_[A-Z]` prefix.
pub fn sanitize(name: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) || s.starts_with('_') {
        s.insert(0, 'k');
    }
    s
}
