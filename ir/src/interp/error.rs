//! What can go wrong while interpreting a kernel.
//!
//! Every error raised by a device op carries a [`Site`]: the op's source
//! location, the kernel, and the block and thread that executed it, so a
//! differential test failure points at the exact source line and thread.

use std::fmt;

/// Where a device-side error happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    /// `file:line:col` of the op (see [`crate::Module::describe_loc`]).
    pub loc: String,
    /// The launched kernel's name.
    pub kernel: String,
    /// `blockIdx` of the executing thread, when there is one.
    pub block: Option<[u32; 3]>,
    /// `threadIdx` of the executing thread, when one thread is to blame.
    pub thread: Option<[u32; 3]>,
}

impl Site {
    fn context(&self) -> String {
        let mut s = format!(" [kernel `{}`", self.kernel);
        if let Some([x, y, z]) = self.block {
            s.push_str(&format!(", block ({x},{y},{z})"));
        }
        if let Some([x, y, z]) = self.thread {
            s.push_str(&format!(", thread ({x},{y},{z})"));
        }
        s.push(']');
        s
    }
}

/// An interpreter error. Device-side errors display as
/// `file:line:col: message [kernel `k`, block (x,y,z), thread (x,y,z)]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InterpError {
    /// A load, store, atomic, copy or fill touching memory it may not.
    Memory {
        /// Where.
        site: Site,
        /// The access and the allocation it hit.
        message: String,
    },
    /// Threads of one block-level group did not all reach the same block
    /// barrier (some finished or wait at another barrier).
    DivergentBarrier {
        /// The location of a barrier that was waited at.
        site: Site,
        /// Which threads waited where, and which finished.
        detail: String,
    },
    /// A warp-collective op (`barrier warp`, `shuffle`, `vote`) whose mask
    /// names lanes that finished or never reach it.
    DivergentWarpOp {
        /// The location of the warp op.
        site: Site,
        /// Which lanes waited where, and which finished.
        detail: String,
    },
    /// The launch executed more ops than the configured step limit.
    StepLimit {
        /// The op that crossed the limit.
        site: Site,
        /// The limit.
        limit: u64,
    },
    /// A `trap` op ran (failed `assert`, `__trap`).
    Trap {
        /// Where.
        site: Site,
        /// The trap's message.
        message: String,
    },
    /// The IR has a shape the interpreter cannot run (wrong operand count,
    /// a value of the wrong type, a region without terminator...).
    Malformed {
        /// Where.
        site: Site,
        /// What is wrong.
        message: String,
    },
    /// An operation with operands outside its domain (a non-positive `for`
    /// step, a shuffle width that is not a power of two, a bad `printf`).
    InvalidOperation {
        /// Where.
        site: Site,
        /// What is wrong.
        message: String,
    },
    /// Calls nested deeper than the interpreter allows.
    CallDepth {
        /// The call that went too deep.
        site: Site,
        /// The depth limit.
        depth: usize,
    },
    /// The texture resolver failed.
    Texture {
        /// Where.
        site: Site,
        /// The resolver's message.
        message: String,
    },
    /// No function of that name exists.
    UnknownKernel {
        /// The name asked for.
        name: String,
    },
    /// The function exists but is a device function.
    NotAKernel {
        /// Its name.
        name: String,
    },
    /// The launch arguments do not match the kernel's parameters.
    BadArgs {
        /// The kernel.
        kernel: String,
        /// What does not match.
        message: String,
    },
    /// The launch configuration is invalid (a zero dimension, too many
    /// threads per block).
    BadConfig {
        /// The kernel.
        kernel: String,
        /// What is wrong.
        message: String,
    },
    /// A host-side memory access through [`super::Memory`] failed.
    Host {
        /// The access and the allocation it hit.
        message: String,
    },
    /// The module's globals could not be set up (reported at launch).
    Setup {
        /// What is wrong.
        message: String,
    },
}

impl InterpError {
    /// The site of a device-side error.
    pub fn site(&self) -> Option<&Site> {
        use InterpError::*;
        match self {
            Memory { site, .. }
            | DivergentBarrier { site, .. }
            | DivergentWarpOp { site, .. }
            | StepLimit { site, .. }
            | Trap { site, .. }
            | Malformed { site, .. }
            | InvalidOperation { site, .. }
            | CallDepth { site, .. }
            | Texture { site, .. } => Some(site),
            _ => None,
        }
    }
}

impl fmt::Display for InterpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use InterpError::*;
        let msg = match self {
            Memory { message, .. } => message.clone(),
            DivergentBarrier { detail, .. } => format!("divergent block barrier: {detail}"),
            DivergentWarpOp { detail, .. } => format!("divergent warp op: {detail}"),
            StepLimit { limit, .. } => format!("step limit of {limit} ops exceeded"),
            Trap { message, .. } => format!("trap: {message}"),
            Malformed { message, .. } => format!("malformed IR: {message}"),
            InvalidOperation { message, .. } => message.clone(),
            CallDepth { depth, .. } => format!("call depth limit of {depth} exceeded"),
            Texture { message, .. } => format!("texture fetch failed: {message}"),
            UnknownKernel { name } => return write!(f, "no function named `{name}`"),
            NotAKernel { name } => return write!(f, "`{name}` is a device function, not a kernel"),
            BadArgs { kernel, message } => {
                return write!(f, "kernel `{kernel}`: bad launch arguments: {message}")
            }
            BadConfig { kernel, message } => {
                return write!(f, "kernel `{kernel}`: bad launch configuration: {message}")
            }
            Host { message } => return write!(f, "host memory access: {message}"),
            Setup { message } => return write!(f, "module setup: {message}"),
        };
        // Every remaining variant has a site.
        match self.site() {
            Some(site) => write!(f, "{}: {msg}{}", site.loc, site.context()),
            None => f.write_str(&msg),
        }
    }
}

impl std::error::Error for InterpError {}
