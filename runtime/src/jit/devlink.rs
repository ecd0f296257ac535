//! The device link of a program built with `nvcc -rdc=true`: its
//! translation units' PTX is relocatable (functions and variables of one
//! unit used by another through `.extern`), so the units are linked into
//! one PTX module ([`cucc_ptx::link`]) and that module is translated and
//! compiled as one image, as NVIDIA's device linker makes one. Units that
//! are not relocatable stay modules of their own, as they always were.

use super::JitError;
use crate::log::{log, Level};

/// One translation unit's PTX as the image's fat binaries hold it.
#[derive(Debug)]
pub struct UnitPtx {
    /// The PTX text.
    pub text: String,
    /// Marked relocatable by nvcc (`--compile-only` among its options):
    /// only such units take part in the device link.
    pub relocatable: bool,
    /// The source file, when nvcc recorded it (`-lineinfo`, `-G`): how
    /// link errors name the unit.
    pub source: String,
}

/// The PTX modules to load for `units`: each unit that is not relocatable
/// on its own, then the relocatable ones linked into one (in unit order).
/// `without_ptx` translation units of the program carry only GPU code; a
/// link error says so, as their symbols are missing from the link.
pub fn modules(units: Vec<UnitPtx>, without_ptx: usize) -> Result<Vec<String>, JitError> {
    let count = units.len();
    let numbered = units.into_iter().enumerate();
    let (linked, alone): (Vec<_>, Vec<_>) = numbered.partition(|(_, u)| u.relocatable);
    let mut out: Vec<String> = alone.into_iter().map(|(_, u)| u.text).collect();
    if linked.is_empty() {
        return Ok(out);
    }
    let names: Vec<String> = linked
        .iter()
        .map(|(i, u)| {
            if u.source.is_empty() {
                format!("translation unit {} of {count}", i + 1)
            } else {
                u.source.clone()
            }
        })
        .collect();
    let parts: Vec<cucc_ptx::link::Unit<'_>> = linked
        .iter()
        .zip(&names)
        .map(|((_, u), name)| cucc_ptx::link::Unit { name, ptx: &u.text })
        .collect();
    let text = cucc_ptx::link::link(&parts).map_err(|e| {
        let note = match without_ptx {
            0 => String::new(),
            n => format!(
                " ({n} more translation unit{} of the program carr{} no PTX, only GPU code, so {} not part of the link: build every unit with PTX, e.g. -arch=sm_XX)",
                if n == 1 { "" } else { "s" },
                if n == 1 { "ies" } else { "y" },
                if n == 1 { "it is" } else { "they are" },
            ),
        };
        JitError::Link(format!("{e}{note}"))
    })?;
    log(Level::Info, || {
        format!(
            "JIT: device-linked {} relocatable translation units into one module",
            parts.len()
        )
    });
    out.push(text);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIB: &str =
        ".version 9.5\n.target sm_80\n.address_size 64\n.visible .global .align 4 .u32 counter;\n";
    const USER: &str = ".version 9.5\n.target sm_80\n.address_size 64\n.extern .global .align 4 .u32 counter;\n.visible .entry _Z1kv()\n{\n\t.reg .b64 %rd<2>;\n\tmov.u64 %rd1, counter;\n\tret;\n}\n";

    fn unit(text: &str, relocatable: bool) -> UnitPtx {
        UnitPtx {
            text: text.to_string(),
            relocatable,
            source: String::new(),
        }
    }

    #[test]
    fn units_that_are_not_relocatable_stay_apart() {
        let out = modules(vec![unit(LIB, false), unit(LIB, false)], 0).expect("loads");
        assert_eq!(out, vec![LIB.to_string(), LIB.to_string()]);
    }

    #[test]
    fn relocatable_units_become_one_module() {
        let out = modules(vec![unit(USER, true), unit(LIB, true)], 0).expect("links");
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].matches(".u32 counter;").count(), 1, "{}", out[0]);
        // A unit nvcc did not mark stays a module of its own, whatever it
        // declares (the frontend reports what it cannot use).
        let out = modules(vec![unit(USER, false), unit(LIB, true)], 0).expect("loads");
        assert_eq!(out, vec![USER.to_string(), LIB.to_string()]);
    }

    #[test]
    fn an_unresolved_symbol_is_a_link_error() {
        let e = modules(vec![unit(USER, true), unit(LIB, false)], 1).expect_err("unresolved");
        assert!(matches!(e, JitError::Link(_)));
        let msg = e.to_string();
        assert!(
            msg.contains("undefined variable `counter` (used by translation unit 1 of 2 (kernels _Z1kv), defined by no unit)"),
            "{msg}"
        );
        assert!(
            msg.contains("1 more translation unit of the program carries no PTX"),
            "{msg}"
        );
        assert_eq!(e.code(), crate::errors::Error::InvalidPtx);
        // A recorded source file names the unit.
        let mut user = unit(USER, true);
        user.source = "user.cu".into();
        let e = modules(vec![user, unit(LIB, false)], 0).expect_err("unresolved");
        assert!(
            e.to_string().contains("used by user.cu (kernels _Z1kv)"),
            "{e}"
        );
    }
}
