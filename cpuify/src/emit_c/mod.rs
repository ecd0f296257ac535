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
//! are slices of `scratch`, left uninitialised as on a GPU. Every IR op
//! is one C statement declaring one variable, named after the source
//! variable where known. Integers are held in unsigned C types (IR integers
//! are signless and wrap); signed ops cast explicitly, `nsw` arithmetic is
//! signed C arithmetic, and thread loops count in `int32_t`.
//!
//! `tex.fetch` calls the prelude's `cucc_tex_fetch` through
//! `launch->tex` (an inline copy for `tex1Dfetch` of linear memory, the
//! runtime's sampler otherwise); `tex.ref` reads the handle the runtime
//! writes at registration (`docs/abi.md`, "Textures").
//!
//! The emitter accepts what cpuify leaves: no barrier, shuffle or vote may
//! remain, and ops outside the grid loop must be free of side effects. It
//! takes verified IR (every pass keeps the module valid; `--verify-each`
//! and the tests check it) and does not re-check what the verifier
//! guarantees: operand and result counts, types, struct fields, globals.

pub mod checks;
pub mod compile;
mod prelude;
mod select;
mod shift;
pub mod target;
mod writer;

pub use checks::Sanitize;
pub use compile::{c_compiler, compile_c, CompileError, CompileOptions, OutputKind};
pub use target::{device_c_flags, large_source_flags, CpuTarget};
pub use writer::{emit_function, emit_function_checked, EmittedKernel};

use crate::error::CpuifyError;
use cucc_ir::{FunctionKind, Linkage, Module, Space};
use std::fmt::Write;

/// A C translation unit for a module's kernels.
#[derive(Clone, Debug)]
pub struct EmittedModule {
    /// The C source.
    pub c: String,
    /// One entry per launch-form function.
    pub kernels: Vec<EmittedKernel>,
}

/// True if a function of `module` calls a directed-rounding extern, whose
/// helpers (and `immintrin.h`, slow to parse) only such files include.
fn uses_directed_rounding(module: &Module) -> bool {
    module.functions.iter().any(|(_, f)| {
        f.ops.iter().any(|(_, o)| {
            matches!(&o.kind, cucc_ir::OpKind::Call(cucc_ir::Callee::Extern(n))
                if cucc_ir::intrinsics::Directed::parse(n).is_some())
        })
    })
}

/// Emits every launch-form function of `module` (and the device and constant
/// globals they use) as one C file.
pub fn emit_module(module: &Module) -> Result<EmittedModule, CpuifyError> {
    emit_module_checked(module, Sanitize::Off)
}

/// [`emit_module`] with the run-time checks of `sanitize`.
pub fn emit_module_checked(
    module: &Module,
    sanitize: Sanitize,
) -> Result<EmittedModule, CpuifyError> {
    let mut c = String::from(prelude::PRELUDE);
    c.push('\n');
    if uses_directed_rounding(module) {
        c.push_str(prelude::DIRECTED);
    }
    if sanitize != Sanitize::Off {
        c.push_str(checks::PRELUDE);
    }
    for (_, g) in module.globals.iter() {
        if g.space == Space::Shared || !matches!(g.kind, cucc_ir::GlobalKind::Variable) {
            continue;
        }
        let size = module.types.size_of(g.ty).max(1);
        let align = module.types.align_of(g.ty).max(1);
        // Storage of an external variable is one C symbol shared by the
        // device objects of separately compiled units (docs/abi.md).
        let (storage, slot) = match g.linkage {
            Linkage::Internal => ("static ", "static "),
            Linkage::External => (
                "__attribute__((visibility(\"hidden\"))) ",
                "__attribute__((visibility(\"hidden\"))) ",
            ),
            Linkage::Import => ("extern ", "extern "),
        };
        if g.linkage == Linkage::Import {
            let _ = writeln!(c, "extern unsigned char {}[];", global_c_name(&g.name));
            if g.managed {
                let _ = writeln!(c, "extern unsigned char *{};", managed_c_name(&g.name));
            }
            continue;
        }
        let _ = write!(
            c,
            "{storage}unsigned char {}[{size}] __attribute__((aligned({align})))",
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
        if g.managed {
            // Kernels reach a managed variable through this pointer; the
            // runtime points it at the host program's copy (docs/abi.md).
            let _ = writeln!(
                c,
                "{slot}unsigned char *{} = {};",
                managed_c_name(&g.name),
                global_c_name(&g.name)
            );
        }
    }
    for (_, g) in module.globals.iter() {
        if matches!(g.kind, cucc_ir::GlobalKind::Texture { .. }) {
            // The handle the runtime assigns at registration (`tex.ref` reads it).
            let _ = writeln!(c, "static uint64_t {};", texref_c_name(&g.name));
        }
    }
    let mut kernels = Vec::new();
    for (fid, f) in module.functions.iter() {
        if f.kind != FunctionKind::Launch {
            continue;
        }
        let (text, info) = emit_function_checked(module, fid, sanitize)?;
        c.push('\n');
        c.push_str(&text);
        kernels.push(info);
    }
    Ok(EmittedModule { c, kernels })
}

/// Emits `module` as a cucc device object: the kernels' C (see
/// [`emit_module`]) plus a constructor that registers every kernel entry and
/// every device and constant variable with the runtime under `module_id`,
/// and registers its legacy texture references, whose handles the runtime
/// writes into the variables `tex.ref` reads (`docs/abi.md`).
pub fn emit_device_object(
    module: &Module,
    module_id: &[u8; 16],
) -> Result<EmittedModule, CpuifyError> {
    emit_device_object_checked(module, module_id, Sanitize::Off, None)
}

/// [`emit_device_object`] with the run-time checks of `sanitize`; with
/// `embedded_ir` (the module's text before cpuify), the object also hands
/// that text to the runtime, which rebuilds the kernels from it with checks
/// when the program runs under `CUCC_SANITIZE` (docs/sanitize.md).
pub fn emit_device_object_checked(
    module: &Module,
    module_id: &[u8; 16],
    sanitize: Sanitize,
    embedded_ir: Option<&str>,
) -> Result<EmittedModule, CpuifyError> {
    let mut m = emit_module_checked(module, sanitize)?;
    let c = &mut m.c;
    c.push_str("\n/* Registration with the cucc runtime (docs/abi.md). */\n");
    c.push_str(crate::abi::C_REGISTRATION_DECLS);
    let _ = write!(c, "static const uint8_t cucc_module_id[16] = {{");
    for b in module_id {
        let _ = write!(c, "{b},");
    }
    c.push_str("};\n");
    for (i, k) in m.kernels.iter().enumerate() {
        let sizes: Vec<String> = k.param_sizes.iter().map(u64::to_string).collect();
        let _ = writeln!(
            c,
            "static const uint32_t cucc_params_{i}[] = {{{}}};",
            if sizes.is_empty() {
                "0".to_string()
            } else {
                sizes.join(", ")
            }
        );
    }
    c.push_str("static const cucc_kernel_info cucc_kernels[] = {\n");
    for (i, k) in m.kernels.iter().enumerate() {
        let _ = writeln!(
            c,
            "  {{\"{}\", {}, {}, {}, {}, cucc_params_{i}}},",
            k.name,
            k.entry,
            k.static_shared,
            k.param_sizes.len(),
            kernel_flags(k)
        );
    }
    c.push_str("  {0, 0, 0, 0, 0, 0}\n};\n");
    let vars: Vec<_> = module
        .globals
        .iter()
        .filter(|(_, g)| {
            g.space != Space::Shared
                && matches!(g.kind, cucc_ir::GlobalKind::Variable)
                && g.linkage != Linkage::Import
        })
        .map(|(_, g)| (g.name.clone(), module.types.size_of(g.ty)))
        .collect();
    c.push_str("static const cucc_var_info cucc_vars[] = {\n");
    for (name, size) in &vars {
        let _ = writeln!(c, "  {{\"{name}\", {}, {size}}},", global_c_name(name));
    }
    c.push_str("  {0, 0, 0}\n};\n");
    let texrefs: Vec<String> = module
        .globals
        .iter()
        .filter(|(_, g)| matches!(g.kind, cucc_ir::GlobalKind::Texture { .. }))
        .map(|(_, g)| g.name.clone())
        .collect();
    c.push_str(crate::abi::C_TEXREF_DECLS);
    c.push_str("static const cucc_texref_info cucc_texrefs[] = {\n");
    for name in &texrefs {
        let _ = writeln!(c, "  {{\"{name}\", &{}}},", texref_c_name(name));
    }
    c.push_str("  {0, 0}\n};\n");
    let managed: Vec<_> = module
        .globals
        .iter()
        .filter(|(_, g)| {
            g.managed
                && matches!(g.kind, cucc_ir::GlobalKind::Variable)
                && g.linkage != Linkage::Import
        })
        .map(|(_, g)| (g.name.clone(), module.types.size_of(g.ty)))
        .collect();
    if !managed.is_empty() {
        c.push_str(crate::abi::C_MANAGED_DECLS);
        c.push_str("static const cucc_managed_info cucc_managed[] = {\n");
        for (name, size) in &managed {
            let _ = writeln!(c, "  {{\"{name}\", &{}, {size}}},", managed_c_name(name));
        }
        c.push_str("  {0, 0, 0}\n};\n");
    }
    if embedded_ir.is_some() {
        c.push_str(
            "void __cucc_register_module_ir(const uint8_t id[16], const char *ir, size_t len);\n",
        );
    }
    let _ = writeln!(
        c,
        "__attribute__((constructor)) static void cucc_register(void) {{\n  __cucc_register_module(cucc_module_id, cucc_kernels, {});\n  __cucc_register_variables(cucc_module_id, cucc_vars, {});",
        m.kernels.len(),
        vars.len()
    );
    if !managed.is_empty() {
        let _ = writeln!(
            c,
            "  __cucc_register_managed(cucc_module_id, cucc_managed, {});",
            managed.len()
        );
    }
    if !texrefs.is_empty() {
        let _ = writeln!(
            c,
            "  __cucc_register_textures(cucc_module_id, cucc_texrefs, {});",
            texrefs.len()
        );
    }
    if let Some(ir) = embedded_ir {
        // Last: a checked rebuild registers under the same id and so
        // replaces what this object registered above.
        let _ = writeln!(
            c,
            "  {{\n    static const char cucc_ir[] = {};\n    __cucc_register_module_ir(cucc_module_id, cucc_ir, sizeof cucc_ir - 1);\n  }}",
            ir_literal(ir)
        );
    }
    c.push_str("}\n");
    Ok(m)
}

/// A C string literal holding `ir`, split into lines of the text.
fn ir_literal(ir: &str) -> String {
    let mut out = String::new();
    for line in ir.split_inclusive('\n') {
        out.push_str("\n      ");
        out.push_str(&checks::c_string(line));
    }
    if out.is_empty() {
        out.push_str("\"\"");
    }
    out
}

/// The C symbol holding a device or constant global's storage.
pub fn global_c_name(name: &str) -> String {
    format!("cucc_g_{}", sanitize(name))
}

/// The C pointer through which kernels reach a managed variable.
pub fn managed_c_name(name: &str) -> String {
    format!("cucc_m_{}", sanitize(name))
}

/// The C variable holding a legacy texture reference's runtime handle.
pub fn texref_c_name(name: &str) -> String {
    format!("cucc_texref_{}", sanitize(name))
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

/// `cucc_kernel_info.flags` of an emitted kernel (docs/abi.md): bit 0 thread
/// ranges; bit 1 outer-loop ranges, with the outermost loop's launch
/// dimension in bits 2-3 and the middle loop's in bits 4-5.
fn kernel_flags(k: &EmittedKernel) -> u32 {
    let mut f = u32::from(k.thread_ranges);
    if let Some((outer, middle)) = k.outer_ranges {
        f |= 2 | (outer as u32) << 2 | (middle as u32) << 4;
    }
    f
}
