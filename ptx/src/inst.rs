//! The typed PTX instruction set: what an instruction means, not how it is
//! spelled. The parser reads an instruction's spelling (`ld.global.v2.f32`)
//! and [`crate::decode`] turns it into an [`Inst`]: an [`Opcode`], typed
//! [`Mods`] and the operands. The decoder rejects what it does not know with
//! the line and the instruction, so the lowering matches on these types
//! instead of testing modifier strings, and a misspelt or unsupported
//! modifier cannot be silently ignored.

use super::ast::{Operand, PtxType, StateSpace};
use super::{Error, Pos, Result};

/// Declares an enum whose variants are spelled as PTX writes them, with
/// `from_name` (the spelling without its dot) and `name`.
macro_rules! spelled {
    ($(#[$doc:meta])* $name:ident { $($v:ident = $s:literal),* $(,)? }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $(#[doc = concat!("`", $s, "`")] $v,)*
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$v),*];

            /// Reads the spelling (without its dot).
            pub fn from_name(s: &str) -> Option<$name> {
                Some(match s {
                    $($s => $name::$v,)*
                    _ => return None,
                })
            }

            /// The spelling (without its dot).
            pub fn name(self) -> &'static str {
                match self {
                    $($name::$v => $s,)*
                }
            }
        }
    };
}

spelled! {
    /// The instructions the frontend lowers (anything else is rejected).
    Opcode {
        Mov = "mov", Cvta = "cvta", Ld = "ld", Ldu = "ldu", St = "st",
        Add = "add", Sub = "sub", Mul = "mul", Div = "div", Rem = "rem",
        Min = "min", Max = "max", And = "and", Or = "or", Xor = "xor",
        Addc = "addc", Subc = "subc", Mad = "mad", Madc = "madc", Fma = "fma",
        Neg = "neg", Abs = "abs", Not = "not", Cnot = "cnot", Popc = "popc",
        Clz = "clz", Brev = "brev", Shl = "shl", Shr = "shr", Shf = "shf",
        Bfe = "bfe", Bfi = "bfi", Bfind = "bfind", Prmt = "prmt", Sad = "sad",
        Copysign = "copysign", Rcp = "rcp", Sqrt = "sqrt", Rsqrt = "rsqrt",
        Sin = "sin", Cos = "cos", Ex2 = "ex2", Lg2 = "lg2", Tanh = "tanh",
        Setp = "setp", Set = "set", Selp = "selp", Slct = "slct", Cvt = "cvt",
        Bar = "bar", Barrier = "barrier", Membar = "membar", Fence = "fence",
        Atom = "atom", Red = "red", Shfl = "shfl", Vote = "vote",
        Activemask = "activemask", Tex = "tex", Call = "call", Trap = "trap",
        Bra = "bra", Brx = "brx", Ret = "ret", Exit = "exit",
        Nanosleep = "nanosleep", Prefetch = "prefetch", Prefetchu = "prefetchu",
        Pmevent = "pmevent", Brkpt = "brkpt", Dp4a = "dp4a", Dp2a = "dp2a",
        Match = "match", Redux = "redux", Bmsk = "bmsk", Szext = "szext",
        Fns = "fns", Lop3 = "lop3", Testp = "testp", Mul24 = "mul24",
        Mad24 = "mad24", Vabsdiff2 = "vabsdiff2", Vabsdiff4 = "vabsdiff4",
    }
}

spelled! {
    /// A comparison of `setp`/`set` (`.lo/.ls/.hi/.hs` are unsigned, the
    /// `u`-suffixed ones unordered float comparisons).
    CmpOp {
        Eq = "eq", Ne = "ne", Lt = "lt", Le = "le", Gt = "gt", Ge = "ge",
        Lo = "lo", Ls = "ls", Hi = "hi", Hs = "hs",
        Equ = "equ", Neu = "neu", Ltu = "ltu", Leu = "leu", Gtu = "gtu",
        Geu = "geu", Num = "num", Nan = "nan",
    }
}

spelled! {
    /// The boolean that combines `setp`'s comparison with a predicate.
    BoolOp { And = "and", Or = "or", Xor = "xor" }
}

spelled! {
    /// A rounding mode: to a float (`.rn` ...), or to an integral value
    /// (`cvt`'s `.rni` ...).
    Rounding {
        Rn = "rn", Rz = "rz", Rm = "rm", Rp = "rp", Rna = "rna", Rs = "rs",
        Rni = "rni", Rzi = "rzi", Rmi = "rmi", Rpi = "rpi",
    }
}

spelled! {
    /// Which part of an integer product `mul`/`mad` keep.
    MulMode { Lo = "lo", Hi = "hi", Wide = "wide" }
}

spelled! {
    /// The operation of `atom`/`red`.
    AtomOp {
        And = "and", Or = "or", Xor = "xor", Cas = "cas", Exch = "exch",
        Add = "add", Inc = "inc", Dec = "dec", Min = "min", Max = "max",
    }
}

spelled! {
    /// The reduction of `bar.red`.
    BarRed { Popc = "popc", And = "and", Or = "or" }
}

spelled! {
    /// A memory scope (`membar.gl` is the device's).
    Scope { Cta = "cta", Cluster = "cluster", Gpu = "gpu", Sys = "sys", Gl = "gl" }
}

spelled! {
    /// A memory-ordering qualifier of loads, stores, atomics and fences.
    MemOrder {
        Weak = "weak", Volatile = "volatile", Relaxed = "relaxed",
        Acquire = "acquire", Release = "release", AcqRel = "acq_rel", Sc = "sc",
    }
}

spelled! {
    /// A cache operator of `ld`/`st` (a hint: it does not change results).
    CacheOp {
        Ca = "ca", Cg = "cg", Cs = "cs", Lu = "lu", Cv = "cv", Wb = "wb", Wt = "wt",
    }
}

spelled! {
    /// Where `shfl` reads from.
    ShflMode { Up = "up", Down = "down", Bfly = "bfly", Idx = "idx" }
}

spelled! {
    /// What `vote` computes.
    VoteMode { All = "all", Any = "any", Uni = "uni", Ballot = "ballot" }
}

spelled! {
    /// A texture geometry.
    TexGeom {
        D1 = "1d", D2 = "2d", D3 = "3d", A1d = "a1d", A2d = "a2d",
        Cube = "cube", Acube = "acube", D2ms = "2dms", A2dms = "a2dms",
    }
}

spelled! {
    /// The direction of a funnel shift (`shf.l`, `shf.r`).
    ShiftDir { L = "l", R = "r" }
}

spelled! {
    /// How a funnel shift treats amounts of 32 and more.
    FunnelMode { Wrap = "wrap", Clamp = "clamp" }
}

spelled! {
    /// A special mode of `prmt` (none: the generic byte permute).
    PrmtMode {
        F4e = "f4e", B4e = "b4e", Rc8 = "rc8", Ecl = "ecl", Ecr = "ecr", Rc16 = "rc16",
    }
}

spelled! {
    /// The class `testp` tests a float for.
    TestpOp {
        Finite = "finite", Infinite = "infinite", Number = "number",
        NotANumber = "notanumber", Normal = "normal", Subnormal = "subnormal",
    }
}

spelled! {
    /// A modifier that is present or not.
    Flag {
        Sat = "sat", Ftz = "ftz", Approx = "approx", Full = "full", Cc = "cc",
        Sync = "sync", Uni = "uni", To = "to", Shiftamt = "shiftamt",
        Noftz = "noftz", Nc = "nc", Mmio = "mmio", Unified = "unified",
        Aligned = "aligned", Relu = "relu", Satfinite = "satfinite",
        NaN = "NaN", Xorsign = "xorsign", Abs = "abs", Arrive = "arrive",
        Red = "red", Warp = "warp", Idx = "idx", Level = "level", Grad = "grad",
        Mask = "mask", L1 = "L1", L2 = "L2", Proxy = "proxy", Alias = "alias",
        Async = "async", Add = "add",
    }
}

/// A set of [`Flag`]s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flags(u64);

impl Flags {
    /// Adds `f`; false if it was already there.
    pub fn insert(&mut self, f: Flag) -> bool {
        let bit = 1u64 << (f as u32);
        let new = self.0 & bit == 0;
        self.0 |= bit;
        new
    }

    /// True if `f` is present.
    pub fn contains(self, f: Flag) -> bool {
        self.0 & (1u64 << (f as u32)) != 0
    }
}

/// A 16-bit float format, as a packed pair's lane type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Half {
    /// IEEE half precision.
    F16,
    /// bfloat16.
    Bf16,
}

/// An instruction's data type: a scalar, or two 16-bit floats in 32 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataType {
    /// `.u32`, `.f32`, `.pred`, ...
    Scalar(PtxType),
    /// `.f16x2`, `.bf16x2`.
    Packed(Half),
    /// `.s16x2` (signed) and `.u16x2`: two 16-bit integers in 32 bits.
    PackedInt {
        /// `.s16x2`.
        signed: bool,
    },
}

impl DataType {
    /// Reads a type modifier (without its dot); `.texref` is no
    /// instruction type.
    pub fn from_name(s: &str) -> Option<DataType> {
        match s {
            "f16x2" => Some(DataType::Packed(Half::F16)),
            "bf16x2" => Some(DataType::Packed(Half::Bf16)),
            "s16x2" => Some(DataType::PackedInt { signed: true }),
            "u16x2" => Some(DataType::PackedInt { signed: false }),
            _ => match PtxType::from_name(s)? {
                PtxType::TexRef => None,
                t => Some(DataType::Scalar(t)),
            },
        }
    }
}

/// An instruction's modifiers, each by its kind; absent ones are `None`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mods {
    /// Data types in the order written (`cvt.f32.s32`: destination, source).
    pub types: Vec<DataType>,
    /// The state space of a memory access or `cvta`.
    pub space: Option<StateSpace>,
    /// `.v2`, `.v4`, `.v8`: elements per access.
    pub vector: Option<u8>,
    /// The comparison of `setp`/`set`.
    pub cmp: Option<CmpOp>,
    /// The combining boolean of `setp`/`set`.
    pub bool_op: Option<BoolOp>,
    /// The rounding mode.
    pub round: Option<Rounding>,
    /// `.lo`, `.hi`, `.wide` of `mul`/`mad`.
    pub mul: Option<MulMode>,
    /// The operation of `atom`/`red`.
    pub atom: Option<AtomOp>,
    /// The reduction of `bar.red`.
    pub bar_red: Option<BarRed>,
    /// The memory scope.
    pub scope: Option<Scope>,
    /// The memory-ordering qualifier.
    pub order: Option<MemOrder>,
    /// The cache operator.
    pub cache: Option<CacheOp>,
    /// The mode of `shfl`.
    pub shfl: Option<ShflMode>,
    /// The mode of `vote`.
    pub vote: Option<VoteMode>,
    /// The geometry of `tex`.
    pub geom: Option<TexGeom>,
    /// The direction of `shf`.
    pub dir: Option<ShiftDir>,
    /// The amount handling of `shf`.
    pub funnel: Option<FunnelMode>,
    /// The mode of `prmt`.
    pub prmt: Option<PrmtMode>,
    /// The class of `testp`.
    pub testp: Option<TestpOp>,
    /// Modifiers that are present or not.
    pub flags: Flags,
}

/// A guard predicate: `@%p` or `@!%p`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guard {
    /// The predicate register.
    pub reg: String,
    /// `@!`: the instruction runs when the predicate is false.
    pub negated: bool,
}

/// A decoded instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct Inst {
    /// Its guard predicate.
    pub guard: Option<Guard>,
    /// The opcode.
    pub op: Opcode,
    /// The modifiers.
    pub mods: Mods,
    /// The operands.
    pub args: Vec<Operand>,
    /// The opcode with its modifiers as written, for messages.
    pub name: String,
    /// Where it starts.
    pub pos: Pos,
    /// The CUDA source position of the last `.loc` before it, if any:
    /// `(file number, line, column)`.
    pub src: Option<(u32, u32, u32)>,
}

impl Inst {
    /// True if flag `f` is present.
    pub fn has(&self, f: Flag) -> bool {
        self.mods.flags.contains(f)
    }

    /// The data type: the last scalar type written.
    pub fn ty(&self) -> Result<PtxType> {
        self.scalars()
            .last()
            .copied()
            .ok_or_else(|| Error::new(self.pos, format!("`{}` needs a type", self.name)))
    }

    /// The last two scalar types (`cvt`: destination, source).
    pub fn types2(&self) -> Result<(PtxType, PtxType)> {
        match self.scalars().as_slice() {
            [.., a, b] => Ok((*a, *b)),
            _ => Err(Error::new(
                self.pos,
                format!("`{}` needs two types", self.op.name()),
            )),
        }
    }

    fn scalars(&self) -> Vec<PtxType> {
        self.mods
            .types
            .iter()
            .filter_map(|t| match t {
                DataType::Scalar(s) => Some(*s),
                DataType::Packed(_) | DataType::PackedInt { .. } => None,
            })
            .collect()
    }

    /// The lane type of a packed (`.f16x2`/`.bf16x2`) instruction.
    pub fn packed(&self) -> Option<Half> {
        self.mods.types.iter().find_map(|t| match t {
            DataType::Packed(h) => Some(*h),
            DataType::Scalar(_) | DataType::PackedInt { .. } => None,
        })
    }

    /// Whether a packed 16-bit integer (`.s16x2`/`.u16x2`) instruction is
    /// signed; `None` for other instructions.
    pub fn packed_int(&self) -> Option<bool> {
        self.mods.types.iter().find_map(|t| match t {
            DataType::PackedInt { signed } => Some(*signed),
            _ => None,
        })
    }

    /// True if one of the types is the scalar `t`.
    pub fn has_type(&self, t: PtxType) -> bool {
        self.mods.types.contains(&DataType::Scalar(t))
    }

    /// The state space of a memory access (generic when none is written).
    pub fn space(&self) -> StateSpace {
        self.mods.space.unwrap_or(StateSpace::Generic)
    }

    /// Elements per access (1 without `.v2`/`.v4`/`.v8`).
    pub fn lanes(&self) -> usize {
        usize::from(self.mods.vector.unwrap_or(1))
    }

    /// Operand `k`.
    pub fn arg(&self, k: usize) -> Result<&Operand> {
        self.args.get(k).ok_or_else(|| {
            Error::new(
                self.pos,
                format!("`{}` needs at least {} operands", self.name, k + 1),
            )
        })
    }

    /// The error for a combination the lowering does not implement.
    pub fn unsupported<T>(&self) -> Result<T> {
        Err(Error::new(
            self.pos,
            format!("unsupported instruction `{}`", self.name),
        ))
    }

    /// True for the instructions that end a basic block.
    pub fn is_branch(&self) -> bool {
        matches!(
            self.op,
            Opcode::Bra | Opcode::Brx | Opcode::Ret | Opcode::Exit
        )
    }
}
