//! The device link of a program built with `nvcc -rdc=true`: its
//! translation units' PTX is relocatable (functions and variables of one
//! unit used by another through `.extern`), so the units are linked into
//! one PTX module ([`cucc_ptx::link`]) and that module is translated and
//! compiled as one image, as NVIDIA's device linker makes one. Units that
//! are not relocatable stay modules of their own, as they always were.

use super::JitError;

/// One translation unit's PTX as the image's fat binaries hold it.
#[derive(Debug)]
pub struct UnitPtx {
    /// The PTX text.
    pub text: String,
    /// Marked relocatable by nvcc (`--compile-only` among its options).
    pub marked: bool,
}

impl UnitPtx {
    /// Whether the unit takes part in the device link: nvcc marked it
    /// relocatable, or it uses symbols it does not define.
    fn relocatable(&self) -> bool {
        self.marked
            || cucc_ptx::link::external_references(&self.text).is_ok_and(|r| !r.is_empty())
    }
}

/// The PTX modules to load for `units`: each unit that is not relocatable
/// on its own, then the relocatable ones linked into one (in unit order).
pub fn modules(units: Vec<UnitPtx>) -> Result<Vec<String>, JitError> {
    let count = units.len();
    let (linked, alone): (Vec<(usize, UnitPtx)>, Vec<(usize, UnitPtx)>) =
        units.into_iter().enumerate().partition(|(_, u)| u.relocatable());
    let mut out: Vec<String> = alone.into_iter().map(|(_, u)| u.text).collect();
    if linked.is_empty() {
        return Ok(out);
    }
    let names: Vec<String> = linked
        .iter()
        .map(|(i, _)| format!("translation unit {} of {count}", i + 1))
        .collect();
    let parts: Vec<cucc_ptx::link::Unit<'_>> = linked
        .iter()
        .zip(&names)
        .map(|((_, u), name)| cucc_ptx::link::Unit {
            name,
            ptx: &u.text,
        })
        .collect();
    let text = cucc_ptx::link::link(&parts).map_err(|e| JitError::Link(e.to_string()))?;
    out.push(text);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIB: &str = ".version 9.5\n.target sm_80\n.address_size 64\n.visible .global .align 4 .u32 counter;\n";
    const USER: &str = ".version 9.5\n.target sm_80\n.address_size 64\n.extern .global .align 4 .u32 counter;\n.visible .entry _Z1kv()\n{\n\t.reg .b64 %rd<2>;\n\tmov.u64 %rd1, counter;\n\tret;\n}\n";

    fn unit(text: &str, marked: bool) -> UnitPtx {
        UnitPtx {
            text: text.to_string(),
            marked,
        }
    }

    #[test]
    fn units_that_are_not_relocatable_stay_apart() {
        let out = modules(vec![unit(LIB, false), unit(LIB, false)]).expect("loads");
        assert_eq!(out, vec![LIB.to_string(), LIB.to_string()]);
    }

    #[test]
    fn relocatable_units_become_one_module() {
        let out = modules(vec![unit(USER, true), unit(LIB, true)]).expect("links");
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].matches("counter;").count(), 1, "{}", out[0]);
        // An unmarked unit with external references is linked too.
        let out = modules(vec![unit(USER, false), unit(LIB, true)]).expect("links");
        assert_eq!(out.len(), 1);
    }

    #[test]
    fn an_unresolved_symbol_is_a_link_error() {
        let e = modules(vec![unit(USER, true), unit(LIB, false)]).expect_err("unresolved");
        assert!(matches!(e, JitError::Link(_)));
        let msg = e.to_string();
        assert!(
            msg.contains("undefined variable `counter`, used by translation unit 1 of 2 (kernels _Z1kv)"),
            "{msg}"
        );
        assert_eq!(e.code(), crate::errors::Error::InvalidPtx);
    }
}
