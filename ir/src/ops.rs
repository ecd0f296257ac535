//! The op set: what each op is, its attributes, and its text-format name.
//!
//! An op is an [`OpKind`] (opcode plus attributes) together with operand
//! values, result values and nested regions, stored in
//! [`OpData`](crate::func::OpData). The operand, result and region shapes of
//! every kind are documented on its variant and checked by the verifier;
//! `docs/ir.md` gives the full semantics.
//!
//! `OpKind` is declared by the op table below (`op_table!`): one row per op
//! gives its variant, text name, flags, arities, region count and text
//! syntax, and everything that is bookkeeping about ops is generated from
//! it (see `docs/add-an-op.md`).

use crate::module::FuncId;
use crate::module::GlobalId;
use crate::types::{Space, TypeId};
use std::fmt;

/// One of the three dimensions of CUDA's thread/block index space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dim {
    /// `.x`
    X,
    /// `.y`
    Y,
    /// `.z`
    Z,
}

impl Dim {
    /// X, Y, Z.
    pub const ALL: [Dim; 3] = [Dim::X, Dim::Y, Dim::Z];

    /// `x`, `y` or `z`.
    pub fn name(self) -> &'static str {
        match self {
            Dim::X => "x",
            Dim::Y => "y",
            Dim::Z => "z",
        }
    }

    /// 0, 1 or 2.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Parses `x`, `y` or `z`.
    pub fn from_name(s: &str) -> Option<Dim> {
        Dim::ALL.into_iter().find(|d| d.name() == s)
    }
}

/// Which parallel level a `parallel` op iterates over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Iterations are the blocks of a grid; no barrier binds to them.
    Grid,
    /// Iterations are the threads of one block; block barriers bind here.
    Block,
    /// Iterations are the warps of one block, each running a nested `lane`
    /// parallel; block barriers bind here too.
    Warp,
    /// Iterations are the lanes of one warp; warp barriers, shuffles and
    /// votes bind here.
    Lane,
}

impl Level {
    /// All levels, outermost first.
    pub const ALL: [Level; 4] = [Level::Grid, Level::Block, Level::Warp, Level::Lane];

    /// The text-format keyword.
    pub fn name(self) -> &'static str {
        match self {
            Level::Grid => "grid",
            Level::Block => "block",
            Level::Warp => "warp",
            Level::Lane => "lane",
        }
    }

    /// Parses a keyword.
    pub fn from_name(s: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.name() == s)
    }
}

/// Synchronisation scope of a barrier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BarrierScope {
    /// `__syncthreads()`: every thread of the block.
    Block,
    /// `__syncwarp(mask)`: the lanes of `mask` in this warp.
    Warp,
}

impl BarrierScope {
    /// The text-format keyword.
    pub fn name(self) -> &'static str {
        match self {
            BarrierScope::Block => "block",
            BarrierScope::Warp => "warp",
        }
    }
}

/// Visibility scope of an atomic or a fence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemScope {
    /// The block (`atomicAdd_block`, `__threadfence_block`).
    Block,
    /// The device (the default for atomics, `__threadfence`).
    Device,
    /// Device and host (`atomicAdd_system`, `__threadfence_system`).
    System,
}

impl MemScope {
    /// The text-format keyword.
    pub fn name(self) -> &'static str {
        match self {
            MemScope::Block => "block",
            MemScope::Device => "device",
            MemScope::System => "system",
        }
    }

    /// Parses a keyword.
    pub fn from_name(s: &str) -> Option<MemScope> {
        [MemScope::Block, MemScope::Device, MemScope::System]
            .into_iter()
            .find(|x| x.name() == s)
    }
}

macro_rules! keyword_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $v:ident = $s:literal,)* }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name { $($(#[$vm])* $v,)* }
        impl $name {
            /// Every variant, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$v,)*];
            /// The text-format keyword.
            pub fn name(self) -> &'static str {
                match self { $($name::$v => $s,)* }
            }
            /// Parses a keyword.
            pub fn from_name(s: &str) -> Option<$name> {
                match s { $($s => Some($name::$v),)* _ => None }
            }
        }
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

keyword_enum! {
    /// Two-operand arithmetic. Both operands and the result have one type:
    /// an integer type for the integer ops, a float type for the `f` ops.
    BinOp {
        /// Wrapping integer addition.
        Add = "add",
        /// Wrapping integer subtraction.
        Sub = "sub",
        /// Wrapping integer multiplication (low half).
        Mul = "mul",
        /// Signed division, rounding toward zero. Division by zero and
        /// `MIN / -1` are errors.
        SDiv = "sdiv",
        /// Unsigned division. Division by zero is an error.
        UDiv = "udiv",
        /// Signed remainder (sign of the dividend).
        SRem = "srem",
        /// Unsigned remainder.
        URem = "urem",
        /// Bitwise and.
        And = "and",
        /// Bitwise or.
        Or = "or",
        /// Bitwise exclusive or.
        Xor = "xor",
        /// Shift left; the amount must be less than the width.
        Shl = "shl",
        /// Logical shift right; the amount must be less than the width.
        LShr = "lshr",
        /// Arithmetic shift right; the amount must be less than the width.
        AShr = "ashr",
        /// Signed minimum.
        SMin = "smin",
        /// Signed maximum.
        SMax = "smax",
        /// Unsigned minimum.
        UMin = "umin",
        /// Unsigned maximum.
        UMax = "umax",
        /// High half of the signed double-width product (`__mulhi`).
        SMulHi = "smulhi",
        /// High half of the unsigned double-width product (`__umulhi`).
        UMulHi = "umulhi",
        /// Float addition.
        FAdd = "fadd",
        /// Float subtraction.
        FSub = "fsub",
        /// Float multiplication.
        FMul = "fmul",
        /// Float division.
        FDiv = "fdiv",
        /// Float remainder with C `fmod` semantics.
        FRem = "frem",
        /// IEEE minNum (`fminf`): a NaN operand yields the other operand.
        FMin = "fmin",
        /// IEEE maxNum (`fmaxf`).
        FMax = "fmax",
    }
}

impl BinOp {
    /// True for the integer ops that are errors for some operands:
    /// division and remainder (by zero, `MIN / -1`) and shifts (by the
    /// width or more).
    pub fn can_fail(self) -> bool {
        matches!(
            self,
            BinOp::SDiv
                | BinOp::UDiv
                | BinOp::SRem
                | BinOp::URem
                | BinOp::Shl
                | BinOp::LShr
                | BinOp::AShr
        )
    }

    /// True for the ops that may carry `nsw` ([`ArithFlags`]): integer
    /// `add`, `sub` and `mul`.
    pub fn takes_nsw(self) -> bool {
        matches!(self, BinOp::Add | BinOp::Sub | BinOp::Mul)
    }

    /// True for the float ops.
    pub fn is_float(self) -> bool {
        matches!(
            self,
            BinOp::FAdd
                | BinOp::FSub
                | BinOp::FMul
                | BinOp::FDiv
                | BinOp::FRem
                | BinOp::FMin
                | BinOp::FMax
        )
    }
}

/// Overflow assumptions of an integer binary op, as LLVM's.
///
/// `nsw` (no signed wrap, on `add`, `sub` and `mul` only): the source
/// language promises that the exact result, reading the operands as signed,
/// fits the type (CUDA's signed arithmetic, where overflow is undefined).
/// Executing an `nsw` op whose signed result overflows is undefined
/// behaviour, as in C; the C emitter writes such ops as signed C arithmetic
/// so the C compiler may assume it too. The flag never changes the value
/// computed when there is no overflow, so dropping it is always correct; a
/// pass that makes an op run where it did not (speculation out of an `if`,
/// out of a loop that may run zero times) must drop it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ArithFlags {
    /// No signed wrap.
    pub nsw: bool,
}

impl ArithFlags {
    /// No assumption: the op wraps.
    pub const NONE: ArithFlags = ArithFlags { nsw: false };
    /// `nsw`.
    pub const NSW: ArithFlags = ArithFlags { nsw: true };

    /// The flags two equivalent ops both carry (what an op standing for
    /// both may keep).
    pub fn intersect(self, other: ArithFlags) -> ArithFlags {
        ArithFlags {
            nsw: self.nsw && other.nsw,
        }
    }
}

keyword_enum! {
    /// One-operand arithmetic; operand and result have the same type.
    UnOp {
        /// Float negation.
        FNeg = "fneg",
        /// Number of set bits (`__popc`); result has the operand's type.
        Popc = "popc",
        /// Count of leading zeros (`__clz`); the width for zero.
        Clz = "clz",
        /// Count of trailing zeros; the width for zero.
        Ctz = "ctz",
        /// Bit reversal (`__brev`).
        Brev = "brev",
    }
}

impl UnOp {
    /// True for the float ops.
    pub fn is_float(self) -> bool {
        matches!(self, UnOp::FNeg)
    }
}

keyword_enum! {
    /// Comparison predicates; the result is `i1`. Integer predicates apply to
    /// integers and pointers; `o*` are ordered float predicates (false if
    /// either is NaN), `u*` unordered ones (true if either is NaN).
    CmpPred {
        /// Integer equal.
        Eq = "eq",
        /// Integer not equal.
        Ne = "ne",
        /// Signed less than.
        Slt = "slt",
        /// Signed less or equal.
        Sle = "sle",
        /// Signed greater than.
        Sgt = "sgt",
        /// Signed greater or equal.
        Sge = "sge",
        /// Unsigned less than.
        Ult = "ult",
        /// Unsigned less or equal.
        Ule = "ule",
        /// Unsigned greater than.
        Ugt = "ugt",
        /// Unsigned greater or equal.
        Uge = "uge",
        /// Ordered equal.
        FOeq = "foeq",
        /// Ordered not equal.
        FOne = "fone",
        /// Ordered less than.
        FOlt = "folt",
        /// Ordered less or equal.
        FOle = "fole",
        /// Ordered greater than.
        FOgt = "fogt",
        /// Ordered greater or equal.
        FOge = "foge",
        /// Unordered or equal.
        FUeq = "fueq",
        /// Unordered or not equal (C's `!=` on floats).
        FUne = "fune",
        /// Unordered or less than.
        FUlt = "fult",
        /// Unordered or less or equal.
        FUle = "fule",
        /// Unordered or greater than.
        FUgt = "fugt",
        /// Unordered or greater or equal.
        FUge = "fuge",
        /// Neither is NaN.
        FOrd = "ford",
        /// Either is NaN.
        FUno = "funo",
    }
}

impl CmpPred {
    /// True for the float predicates.
    pub fn is_float(self) -> bool {
        self.name().starts_with('f')
    }
}

keyword_enum! {
    /// Conversions. The result type is the op's single result type.
    CastOp {
        /// Integer to narrower integer, dropping high bits.
        Trunc = "trunc",
        /// Integer to wider integer, zero-filling.
        ZExt = "zext",
        /// Integer to wider integer, sign-extending.
        SExt = "sext",
        /// Float to narrower float, rounding to nearest even.
        FpTrunc = "fptrunc",
        /// Float to wider float.
        FpExt = "fpext",
        /// Float to signed integer, toward zero, saturating; NaN gives 0.
        FpToSi = "fptosi",
        /// Float to unsigned integer, toward zero, saturating; NaN gives 0.
        FpToUi = "fptoui",
        /// Signed integer to float, rounding to nearest even.
        SiToFp = "sitofp",
        /// Unsigned integer to float, rounding to nearest even.
        UiToFp = "uitofp",
        /// Same-size reinterpretation between integer and float types.
        Bitcast = "bitcast",
        /// Pointer to `i64` (or narrower, truncating).
        PtrToInt = "ptrtoint",
        /// Integer to pointer.
        IntToPtr = "inttoptr",
        /// Pointer to pointer in another space (same address).
        SpaceCast = "spacecast",
    }
}

keyword_enum! {
    /// Atomic read-modify-write operations; the op returns the old value.
    AtomicOp {
        /// `old + v` (integers).
        Add = "add",
        /// `old - v`.
        Sub = "sub",
        /// `old & v`.
        And = "and",
        /// `old | v`.
        Or = "or",
        /// `old ^ v`.
        Xor = "xor",
        /// Signed minimum.
        SMin = "smin",
        /// Signed maximum.
        SMax = "smax",
        /// Unsigned minimum.
        UMin = "umin",
        /// Unsigned maximum.
        UMax = "umax",
        /// Stores `v`.
        Xchg = "xchg",
        /// `atomicInc`: `old >= v ? 0 : old + 1` (unsigned).
        Inc = "inc",
        /// `atomicDec`: `(old == 0 || old > v) ? v : old - 1` (unsigned).
        Dec = "dec",
        /// Float addition.
        FAdd = "fadd",
        /// Float minimum.
        FMin = "fmin",
        /// Float maximum.
        FMax = "fmax",
    }
}

keyword_enum! {
    /// The four `__shfl*_sync` flavours.
    ShuffleMode {
        /// Read lane `src` (`__shfl_sync`).
        Idx = "idx",
        /// Read lane `self - delta` (`__shfl_up_sync`).
        Up = "up",
        /// Read lane `self + delta` (`__shfl_down_sync`).
        Down = "down",
        /// Read lane `self ^ mask` (`__shfl_xor_sync`).
        Xor = "xor",
    }
}

keyword_enum! {
    /// Warp votes.
    VoteKind {
        /// `__ballot_sync`: bit `i` set if lane `i`'s predicate holds (`i32`).
        Ballot = "ballot",
        /// `__any_sync` (`i1`).
        Any = "any",
        /// `__all_sync` (`i1`).
        All = "all",
    }
}

keyword_enum! {
    /// `__syncthreads_count/and/or`: a block barrier that also reduces a predicate.
    BarrierReduceKind {
        /// Number of threads whose predicate holds (`i32`).
        Count = "count",
        /// True if every predicate holds (`i1`).
        And = "and",
        /// True if any predicate holds (`i1`).
        Or = "or",
    }
}

keyword_enum! {
    /// Texture fetch flavours.
    TexKind {
        /// `tex1Dfetch`: one integer coordinate, no filtering.
        Fetch1D = "fetch1d",
        /// `tex1D`: one float coordinate.
        Tex1D = "1d",
        /// `tex2D`: two float coordinates.
        Tex2D = "2d",
        /// `tex3D`: three float coordinates.
        Tex3D = "3d",
        /// One channel of a four-channel `tex1Dfetch`: an integer
        /// coordinate and the channel (`v.x`..`v.w` chosen at run time;
        /// unsigned, 3 and above read `w`). One result.
        Fetch1DLane = "fetch1d.lane",
    }
}

impl TexKind {
    /// Number of coordinate operands.
    pub fn coords(self) -> usize {
        match self {
            TexKind::Fetch1D | TexKind::Tex1D => 1,
            TexKind::Tex2D | TexKind::Fetch1DLane => 2,
            TexKind::Tex3D => 3,
        }
    }
}

/// What a `call` calls.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Callee {
    /// A function of this module.
    Func(FuncId),
    /// A known external function (see [`crate::intrinsics`]), such as `sinf`.
    Extern(String),
}

/// How many operands or results an op takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arity {
    /// Exactly this many.
    Exact(usize),
    /// At least this many (`AtLeast(0)`: any number, checked elsewhere if
    /// at all, e.g. a call's against its callee).
    AtLeast(usize),
    /// Between the two, inclusive.
    Between(usize, usize),
}

use Arity::{AtLeast, Between, Exact};

impl Arity {
    /// True if an op may have `n` of them.
    pub fn accepts(self, n: usize) -> bool {
        match self {
            Arity::Exact(k) => n == k,
            Arity::AtLeast(k) => n >= k,
            Arity::Between(lo, hi) => (lo..=hi).contains(&n),
        }
    }
}

/// An arity in the op table: fixed, or computed from the op's attributes.
trait ArityRule {
    fn arity(&self, kind: &OpKind) -> Arity;
}

impl ArityRule for Arity {
    fn arity(&self, _: &OpKind) -> Arity {
        *self
    }
}

impl<F: Fn(&OpKind) -> Arity> ArityRule for F {
    fn arity(&self, kind: &OpKind) -> Arity {
        self(kind)
    }
}

/// How an op is written in the text format, after its result names and
/// mnemonic; the parser and printer dispatch on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpSyntax {
    /// `mnemonic %operands : types`: the mnemonic alone gives the kind.
    Plain,
    /// `mnemonic attrs %operands : types`, the attributes written by a
    /// per-op hook of the parser and printer.
    Attrs,
    /// `mnemonic ... : types` with everything between written by a per-op
    /// hook (a constant's literal, a call's callee and arguments).
    Custom,
    /// A header naming region arguments, then the regions in braces.
    Structured,
}

/// What a mnemonic tells the parser before it reads any attribute.
#[derive(Clone, Debug, PartialEq)]
pub enum OpHead {
    /// The whole kind, with any attribute the mnemonic does not fix at its
    /// default (e.g. a binary op's flags).
    Kind(OpKind),
    /// Only the op: its attributes follow in the text.
    Code(OpCode),
}

impl OpHead {
    /// The op the mnemonic names.
    pub fn code(&self) -> OpCode {
        match self {
            OpHead::Kind(k) => k.code(),
            OpHead::Code(c) => *c,
        }
    }
}

op_table! {
/// Opcode and attributes of an op.
///
/// Operand/result/region shapes are given as `(operands) -> results [regions]`.
enum OpKind {
    // ---- values -------------------------------------------------------
    /// `() -> T`: a constant. `bits` holds the value's bit pattern: the
    /// integer zero-extended, the float's IEEE bits, or 0 for a null pointer.
    Const {
        /// Raw bits, zero-extended to 64 bits.
        bits: u64,
    } => {
        name: "const", flags: [pure],
        operands: Exact(0), results: Exact(1), regions: 0, syntax: Custom,
    },
    /// `() -> T`: an unspecified value (uninitialised memory promoted to SSA).
    Undef => {
        name: "undef", flags: [pure],
        operands: Exact(0), results: Exact(1), regions: 0, syntax: Plain,
    },
    /// `(a, b) -> T`, with overflow flags (only integer `add`, `sub` and
    /// `mul` may carry any).
    Binary(BinOp, ArithFlags) => {
        name: (BinOp), flags: [pure],
        operands: Exact(2), results: Exact(1), regions: 0, syntax: Attrs,
    },
    /// `(a) -> T`.
    Unary(UnOp) => {
        name: (UnOp), flags: [pure],
        operands: Exact(1), results: Exact(1), regions: 0, syntax: Plain,
    },
    /// `(a, b) -> i1`.
    Cmp(CmpPred) => {
        name: "cmp", flags: [pure],
        operands: Exact(2), results: Exact(1), regions: 0, syntax: Attrs,
    },
    /// `(a) -> T`.
    Cast(CastOp) => {
        name: (CastOp), flags: [pure],
        operands: Exact(1), results: Exact(1), regions: 0, syntax: Plain,
    },
    /// `(cond: i1, a, b) -> T`.
    Select => {
        name: "select", flags: [pure],
        operands: Exact(3), results: Exact(1), regions: 0, syntax: Plain,
    },

    // ---- control flow -------------------------------------------------
    /// `(cond: i1) -> Ts [then, else]`: both regions take no arguments and
    /// end in `yield` of values of types `Ts`.
    If => {
        name: "if", flags: [],
        operands: Exact(1), results: AtLeast(0), regions: 2, syntax: Structured,
    },
    /// `(lb, ub, step, init...) -> Ts [body(iv, carried...)]`: for
    /// `iv = lb; iv < ub; iv += step` (compared signed unless `unsigned`);
    /// `step` must be positive. The body yields the next carried values; the
    /// results are the last carried values (the inits if the loop runs zero
    /// times). `lb`, `ub`, `step` and `iv` share one integer type.
    For {
        /// Compare `iv < ub` as unsigned.
        unsigned: bool,
    } => {
        name: "for", flags: [],
        operands: AtLeast(3), results: AtLeast(0), regions: 1, syntax: Structured,
    },
    /// `(init...) -> Ts [before(args...), after(args...)]`: `before` ends in
    /// `condition(c, vals...)`; if `c` holds, `after` runs with `vals` and
    /// yields the next arguments of `before`; otherwise `vals` are the results.
    While => {
        name: "while", flags: [],
        operands: AtLeast(0), results: AtLeast(0), regions: 2, syntax: Structured,
    },
    /// `(ub...) -> () [body(iv...)]`: runs the body for every index vector
    /// `0 <= iv < ub` (1 to 3 dimensions, one integer type), as concurrent
    /// iterations of the given level. Barriers inside bind to it as the
    /// [`Level`] docs say.
    Parallel {
        /// What the iterations are.
        level: Level,
    } => {
        name: "parallel", flags: [],
        operands: Between(1, 3), results: Exact(0), regions: 1, syntax: Structured,
    },
    /// `(vals...) -> ()`: terminates an `if`, `for`, `while`-after or
    /// `parallel` region.
    Yield => {
        name: "yield", flags: [terminator],
        operands: AtLeast(0), results: Exact(0), regions: 0, syntax: Plain,
    },
    /// `(c: i1, vals...) -> ()`: terminates a `while` before-region.
    Condition => {
        name: "condition", flags: [terminator],
        operands: AtLeast(0), results: Exact(0), regions: 0, syntax: Plain,
    },
    /// `(vals...) -> ()`: returns from the function.
    Return => {
        name: "return", flags: [terminator],
        operands: AtLeast(0), results: Exact(0), regions: 0, syntax: Plain,
    },
    /// `(args...) -> results`: calls a module function or a known extern.
    Call(Callee) => {
        name: "call", flags: [],
        operands: AtLeast(0), results: AtLeast(0), regions: 0, syntax: Custom,
    },

    // ---- memory ---------------------------------------------------------
    /// `() -> ptr<space>`: reserves storage for one `ty`. A private alloca
    /// is per executing thread and its contents are unspecified until
    /// written (as a C local's; the interpreter zero-fills them); a shared
    /// alloca (only valid outside any block-level parallel, in launch-form
    /// functions) is per executing grid iteration, i.e. per block, and
    /// likewise unspecified until written.
    Alloca {
        /// Space of the storage: private or shared.
        space: Space,
        /// What is allocated.
        ty: TypeId,
    } => {
        name: "alloca", flags: [],
        operands: Exact(0), results: Exact(1), regions: 0, syntax: Attrs,
    },
    /// `(ptr) -> T`: reads a scalar.
    Load {
        /// C `volatile`: never removed, merged or moved.
        volatile: bool,
        /// Executed where the program may not have read (`speculate`): the
        /// address may lie outside its allocation, then the value is
        /// unspecified (the interpreter reads 0) and only discarded. The
        /// pass proves such addresses stay within the guard bytes the
        /// runtime keeps around shared scratch (docs/design.md).
        speculative: bool,
    } => {
        name: "load", flags: [],
        operands: Exact(1), results: Exact(1), regions: 0, syntax: Attrs,
    },
    /// `(ptr, value) -> ()`: writes a scalar.
    Store {
        /// C `volatile`.
        volatile: bool,
    } => {
        name: "store", flags: [],
        operands: Exact(2), results: Exact(0), regions: 0, syntax: Attrs,
    },
    /// `(base: ptr, index: int) -> ptr`: `base + index * size_of(elem)`, the
    /// index read as signed.
    PtrIndex {
        /// The element type whose size scales the index.
        elem: TypeId,
    } => {
        name: "ptr.index", flags: [pure],
        operands: Exact(2), results: Exact(1), regions: 0, syntax: Attrs,
    },
    /// `(base: ptr) -> ptr`: the address of field `field` of the struct at `base`.
    PtrField {
        /// The struct type.
        ty: TypeId,
        /// Field position.
        field: u32,
    } => {
        name: "ptr.field", flags: [pure],
        operands: Exact(1), results: Exact(1), regions: 0, syntax: Attrs,
    },
    /// `() -> ptr<space of global>`: address of a module global (for shared
    /// globals, the executing block's instance).
    GlobalAddr(GlobalId) => {
        name: "global.addr", flags: [pure],
        operands: Exact(0), results: Exact(1), regions: 0, syntax: Attrs,
    },
    /// `() -> ptr<shared>`: the executing block's dynamic shared memory
    /// (`extern __shared__`), sized by the launch.
    DynamicShared => {
        name: "shared.dynamic", flags: [pure],
        operands: Exact(0), results: Exact(1), regions: 0, syntax: Plain,
    },
    /// `(dst: ptr, src: ptr, len: i64) -> ()`: copies bytes (no overlap).
    Memcpy => {
        name: "memcpy", flags: [],
        operands: Exact(3), results: Exact(0), regions: 0, syntax: Plain,
    },
    /// `(dst: ptr, byte: i8, len: i64) -> ()`: fills bytes.
    Memset => {
        name: "memset", flags: [],
        operands: Exact(3), results: Exact(0), regions: 0, syntax: Plain,
    },
    /// `(ptr, len: i64) -> ()`: a hint that `[ptr, ptr + len)` will be read
    /// soon (`prefetch`). No effect on memory or values; the range need not
    /// be valid.
    Prefetch => {
        name: "prefetch", flags: [],
        operands: Exact(2), results: Exact(0), regions: 0, syntax: Plain,
    },
    /// `(ptr, v) -> T`: atomic read-modify-write, returns the old value.
    AtomicRmw {
        /// The operation.
        op: AtomicOp,
        /// Visibility scope.
        scope: MemScope,
    } => {
        name: "atomic.rmw", flags: [],
        operands: Exact(2), results: Exact(1), regions: 0, syntax: Attrs,
    },
    /// `(ptr, expected, new) -> T`: atomic compare-and-swap, returns the old value.
    AtomicCas {
        /// Visibility scope.
        scope: MemScope,
    } => {
        name: "atomic.cas", flags: [],
        operands: Exact(3), results: Exact(1), regions: 0, syntax: Attrs,
    },
    /// `() -> ()`: memory fence (`__threadfence*`).
    Fence {
        /// Visibility scope.
        scope: MemScope,
    } => {
        name: "fence", flags: [],
        operands: Exact(0), results: Exact(0), regions: 0, syntax: Attrs,
    },

    // ---- GPU ------------------------------------------------------------
    /// `() -> i32`: `threadIdx.d`.
    ThreadId(Dim) => {
        name: "thread_id", flags: [pure],
        operands: Exact(0), results: Exact(1), regions: 0, syntax: Attrs,
    },
    /// `() -> i32`: `blockIdx.d`.
    BlockId(Dim) => {
        name: "block_id", flags: [pure],
        operands: Exact(0), results: Exact(1), regions: 0, syntax: Attrs,
    },
    /// `() -> i32`: `blockDim.d`.
    BlockDim(Dim) => {
        name: "block_dim", flags: [pure],
        operands: Exact(0), results: Exact(1), regions: 0, syntax: Attrs,
    },
    /// `() -> i32`: `gridDim.d`.
    GridDim(Dim) => {
        name: "grid_dim", flags: [pure],
        operands: Exact(0), results: Exact(1), regions: 0, syntax: Attrs,
    },
    /// `() -> i32`: lane within the warp (linear thread id mod 32).
    LaneId => {
        name: "lane_id", flags: [pure],
        operands: Exact(0), results: Exact(1), regions: 0, syntax: Plain,
    },
    /// `() -> i32`: 32.
    WarpSize => {
        name: "warp_size", flags: [pure],
        operands: Exact(0), results: Exact(1), regions: 0, syntax: Plain,
    },
    /// `() -> ()` for block scope (`__syncthreads`), `(mask: i32) -> ()`
    /// for warp scope (`__syncwarp`).
    Barrier(BarrierScope) => {
        name: "barrier",
        flags: [],
        operands: |k: &OpKind| match k {
            OpKind::Barrier(BarrierScope::Warp) => Exact(1),
            _ => Exact(0),
        },
        results: Exact(0),
        regions: 0,
        syntax: Attrs,
    },
    /// `(pred: i1) -> i32|i1`: block barrier reducing a predicate.
    BarrierReduce(BarrierReduceKind) => {
        name: "barrier.reduce", flags: [],
        operands: Exact(1), results: Exact(1), regions: 0, syntax: Attrs,
    },
    /// `(mask: i32, value, lane_or_delta: i32, width: i32) -> T`.
    Shuffle(ShuffleMode) => {
        name: "shuffle", flags: [],
        operands: Exact(4), results: Exact(1), regions: 0, syntax: Attrs,
    },
    /// `(mask: i32, pred: i1) -> i32|i1`.
    Vote(VoteKind) => {
        name: "vote", flags: [],
        operands: Exact(2), results: Exact(1), regions: 0, syntax: Attrs,
    },
    /// `() -> i32`: the mask of the lanes executing this op together.
    ActiveMask => {
        name: "activemask", flags: [],
        operands: Exact(0), results: Exact(1), regions: 0, syntax: Plain,
    },
    /// `(handle: i64, coords...) -> T x 1..4`: texture fetch through a
    /// handle the runtime resolves (a texture object, or `texref`).
    /// Coordinates are `i32` for `fetch1d`, `f32` otherwise.
    TexFetch(TexKind) => {
        name: "tex.fetch",
        flags: [],
        operands: |k: &OpKind| match k {
            OpKind::TexFetch(kind) => Exact(1 + kind.coords()),
            _ => Exact(1),
        },
        results: |k: &OpKind| match k {
            OpKind::TexFetch(TexKind::Fetch1DLane) => Exact(1),
            _ => Between(1, 4),
        },
        regions: 0,
        syntax: Attrs,
    },
    /// `() -> i64`: the handle of a legacy texture reference (a global of
    /// kind texture).
    TexRef(GlobalId) => {
        name: "tex.ref", flags: [pure],
        operands: Exact(0), results: Exact(1), regions: 0, syntax: Attrs,
    },
    /// `(ptrs...) -> i1`: true when every pointer points into a live
    /// allocation the host made for the device (`cudaMalloc`), no two into
    /// the same one. Pointers into distinct allocations cannot reach each
    /// other's bytes, so code guarded by it may treat them as `noalias`.
    AllocDistinct => {
        name: "alloc.distinct", flags: [pure],
        operands: AtLeast(1), results: Exact(1), regions: 0, syntax: Plain,
    },
    /// `() -> i32` (`clock`) or `() -> i64` (`clock64`): a cycle counter.
    Clock {
        /// 64-bit counter.
        wide: bool,
    } => {
        name: [(Clock { wide: false }) "clock", (Clock { wide: true }) "clock64"], flags: [],
        operands: Exact(0), results: Exact(1), regions: 0, syntax: Plain,
    },
    /// `(args...) -> ()`: device `printf` with a C format string.
    Printf {
        /// The format string, unescaped.
        format: String,
    } => {
        name: "printf", flags: [],
        operands: AtLeast(0), results: Exact(0), regions: 0, syntax: Custom,
    },
    /// `() -> ()`: aborts the kernel with a message (failed `assert`, `__trap`).
    Trap {
        /// What to report.
        message: String,
        /// A failed `assert` (CUDA reports `cudaErrorAssert`) rather than a
        /// `__trap()` (`cudaErrorLaunchFailure`).
        assert: bool,
    } => {
        name: "trap", flags: [],
        operands: Exact(0), results: Exact(0), regions: 0, syntax: Attrs,
    },
}
}

impl OpKind {
    /// True for ops that end a region.
    pub fn is_terminator(&self) -> bool {
        self.code().is_terminator()
    }

    /// True for ops that synchronise threads (block or warp barriers, and
    /// the warp-collective shuffles and votes, which exchange data).
    pub fn is_synchronizing(&self) -> bool {
        matches!(
            self,
            OpKind::Barrier(_) | OpKind::BarrierReduce(_) | OpKind::Shuffle(_) | OpKind::Vote(_)
        )
    }

    /// True if the op synchronises the whole block.
    pub fn is_block_barrier(&self) -> bool {
        matches!(
            self,
            OpKind::Barrier(BarrierScope::Block) | OpKind::BarrierReduce(_)
        )
    }

    /// True if the op is warp-collective (warp barrier, shuffle, vote).
    pub fn is_warp_collective(&self) -> bool {
        matches!(
            self,
            OpKind::Barrier(BarrierScope::Warp) | OpKind::Shuffle(_) | OpKind::Vote(_)
        )
    }

    /// Number of regions this kind carries.
    pub fn region_count(&self) -> usize {
        self.code().region_count()
    }

    /// True if the op has no effect besides producing its results, so it may
    /// be removed when unused, hoisted or duplicated.
    pub fn is_pure(&self) -> bool {
        self.code().is_pure()
    }
}
