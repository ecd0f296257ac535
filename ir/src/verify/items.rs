//! Module items: function signatures and names, globals.

use super::{located, plural, FuncCx, VerifyError};
use crate::func::FunctionKind;
use crate::module::{GlobalKind, Linkage, Module};
use crate::types::{Space, Type};
use std::collections::HashMap;

/// Function names are unique.
pub(super) fn check_unique_function_names(module: &Module, errors: &mut Vec<VerifyError>) {
    let mut seen = HashMap::new();
    for (id, f) in module.functions.iter() {
        if let Some(first) = seen.insert(f.name.as_str(), id) {
            let mut e = located(
                module,
                f.loc,
                format!(
                    "function name @{} is already used by function {}",
                    f.name,
                    first.index()
                ),
            );
            e.function = Some(f.name.clone());
            errors.push(e);
        }
    }
}

/// Global names are unique, variables have a valid space and initializer,
/// textures a valid shape. Layout-dependent checks need a sound type table.
pub(super) fn check_globals(module: &Module, types_sound: bool, errors: &mut Vec<VerifyError>) {
    let types = &module.types;
    let mut seen = HashMap::new();
    for (id, g) in module.globals.iter() {
        let mut report = |message: String| {
            errors.push(located(
                module,
                g.loc,
                format!("global @{}: {message}", g.name),
            ));
        };
        if let Some(first) = seen.insert(g.name.as_str(), id) {
            report(format!("name is already used by global {}", first.index()));
        }
        if !types.contains(g.ty) {
            report(format!(
                "type handle {} is out of range ({} types)",
                g.ty.index(),
                types.len()
            ));
            continue;
        }
        if !types_sound {
            continue;
        }
        match g.kind {
            GlobalKind::Variable => {
                if !matches!(g.space, Space::Global | Space::Constant | Space::Shared) {
                    report(format!(
                        "a variable lives in global, constant or shared space, not {}",
                        g.space
                    ));
                }
                if g.linkage == Linkage::Import {
                    if g.init.is_some() {
                        report("an imported variable has no initializer".into());
                    }
                    if g.space == Space::Shared {
                        report("shared variables cannot be imported".into());
                    }
                }
                if g.managed && g.space != Space::Global {
                    report(format!(
                        "a managed variable lives in global space, not {}",
                        g.space
                    ));
                }
                match (&g.init, g.space) {
                    (Some(_), Space::Shared) => {
                        report("shared globals cannot have an initializer".into())
                    }
                    (Some(bytes), _) if bytes.len() as u64 != types.size_of(g.ty) => {
                        report(format!(
                            "initializer has {}, expected {} (the size of {})",
                            plural(bytes.len(), "byte"),
                            types.size_of(g.ty),
                            types.display(g.ty)
                        ))
                    }
                    _ => {}
                }
            }
            GlobalKind::Texture { dims } => {
                if g.linkage != Linkage::Internal {
                    report("a texture reference is internal to its module".into());
                }
                if g.managed {
                    report("a texture reference cannot be managed".into());
                }
                if !(1..=3).contains(&dims) {
                    report(format!(
                        "a texture reference has 1 to 3 dimensions, found {dims}"
                    ));
                }
                if !types[g.ty].is_scalar() {
                    report(format!(
                        "a texture reference's element type must be a scalar, found {}",
                        types.display(g.ty)
                    ));
                }
            }
        }
    }
}

/// An imported function is a device function whose body has no ops.
pub(super) fn check_declaration(cx: &mut FuncCx<'_>) {
    let func = cx.func;
    if func.kind != FunctionKind::Device {
        cx.func_error(format!(
            "only device functions can be imported, not a {}",
            func.kind.name()
        ));
    }
    if !func.regions[func.body].ops.is_empty() {
        cx.func_error("an imported function has no body".into());
    }
}

/// Parameter attributes match the body's arguments; `byval` is on pointers
/// to aggregates; kernels return nothing; results are scalars.
pub(super) fn check_signature(cx: &mut FuncCx<'_>) {
    let func = cx.func;
    let args = &func.regions[func.body].args;
    if func.params.len() != args.len() {
        cx.func_error(format!(
            "has {} but its body takes {}",
            plural(func.params.len(), "parameter attribute"),
            plural(args.len(), "argument")
        ));
    }
    for (i, (p, &v)) in func.params.iter().zip(args).enumerate() {
        let Some(by) = p.byval else { continue };
        let ty = cx.ty(v);
        if !cx.module.types[ty].is_ptr() {
            let m = format!(
                "parameter {i} is byval but has type {}, expected a pointer",
                cx.show(ty)
            );
            cx.func_error(m);
        }
        if !matches!(cx.module.types[by], Type::Struct(_) | Type::Array { .. }) {
            let m = format!(
                "byval type of parameter {i} is {}, expected a struct or array",
                cx.show(by)
            );
            cx.func_error(m);
        }
    }
    if matches!(func.kind, FunctionKind::Kernel | FunctionKind::Launch) && !func.results.is_empty()
    {
        let m = format!(
            "a {} function returns nothing, found results {}",
            func.kind.name(),
            cx.show_list(&func.results)
        );
        cx.func_error(m);
    }
    for (i, &ty) in func.results.iter().enumerate() {
        if !cx.module.types[ty].is_scalar() {
            let m = format!("result type {i} ({}) is not a scalar", cx.show(ty));
            cx.func_error(m);
        }
    }
}
