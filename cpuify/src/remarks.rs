//! Optimisation remarks: what the passes did to each kernel, for `--remarks`.

use cucc_ir::{Function, Loc, Module};
use std::fmt;

/// One remark: a pass, a kernel, a source location and what happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Remark {
    /// The pass that made it.
    pub pass: &'static str,
    /// The kernel's name.
    pub function: String,
    /// Where in the source.
    pub loc: Loc,
    /// What was done.
    pub message: String,
}

/// Remarks collected over a pipeline run.
#[derive(Clone, Debug, Default)]
pub struct Remarks {
    /// In the order they were made.
    pub items: Vec<Remark>,
}

impl Remarks {
    /// Records a remark.
    pub fn add(
        &mut self,
        pass: &'static str,
        function: &str,
        loc: Loc,
        message: impl Into<String>,
    ) {
        self.items.push(Remark {
            pass,
            function: function.to_string(),
            loc,
            message: message.into(),
        });
    }

    /// Records a remark on `func`, named as the kernel it came from.
    pub fn add_on(
        &mut self,
        pass: &'static str,
        func: &Function,
        loc: Loc,
        message: impl Into<String>,
    ) {
        let name = func.name.clone();
        self.add(pass, &name, loc, message);
    }

    /// Renders every remark as `file:line:col: remark: [pass] kernel: message`.
    pub fn render(&self, module: &Module) -> String {
        let mut out = String::new();
        for r in &self.items {
            out.push_str(&format!(
                "{}: remark: [{}] {}: {}\n",
                module.describe_loc(r.loc),
                r.pass,
                r.function,
                r.message
            ));
        }
        out
    }
}

impl fmt::Display for Remark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}] {}: {}", self.pass, self.function, self.message)
    }
}
