//! The parsed form of a PTX module: variables, functions, statements.

use super::inst::Inst;
use super::Pos;

/// A PTX state space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateSpace {
    /// `.reg`
    Reg,
    /// `.param`
    Param,
    /// `.global`
    Global,
    /// `.const`
    Const,
    /// `.shared`
    Shared,
    /// `.local`
    Local,
    /// `.tex` (legacy texture references)
    Tex,
    /// No space: generic addressing.
    Generic,
}

impl StateSpace {
    /// Reads a space directive or opcode modifier (`global`, `shared`, ...).
    pub fn from_name(s: &str) -> Option<StateSpace> {
        Some(match s {
            "reg" => StateSpace::Reg,
            "param" => StateSpace::Param,
            "global" => StateSpace::Global,
            "const" => StateSpace::Const,
            "shared" => StateSpace::Shared,
            "local" => StateSpace::Local,
            "tex" => StateSpace::Tex,
            _ => return None,
        })
    }
}

/// A PTX fundamental type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PtxType {
    /// `.pred`
    Pred,
    /// `.bN`, `.uN`, `.sN`: bits and signedness.
    Int {
        /// Width in bits (8, 16, 32, 64).
        bits: u8,
        /// `.sN`.
        signed: bool,
    },
    /// `.f16`, `.bf16`, `.f32`, `.f64`.
    Float {
        /// Width in bits.
        bits: u8,
        /// `.bf16`.
        brain: bool,
    },
    /// `.texref`
    TexRef,
}

impl PtxType {
    /// `.u16` (and `.b16`).
    pub const U16: PtxType = PtxType::int(16, false);
    /// `.s32`.
    pub const S32: PtxType = PtxType::int(32, true);
    /// `.u32` (and `.b32`).
    pub const U32: PtxType = PtxType::int(32, false);
    /// `.u64` (and `.b64`).
    pub const U64: PtxType = PtxType::int(64, false);
    /// `.f16`.
    pub const F16: PtxType = PtxType::float(16, false);
    /// `.bf16`.
    pub const BF16: PtxType = PtxType::float(16, true);
    /// `.f32`.
    pub const F32: PtxType = PtxType::float(32, false);
    /// `.f64`.
    pub const F64: PtxType = PtxType::float(64, false);

    /// An integer type of `bits` bits.
    pub const fn int(bits: u8, signed: bool) -> PtxType {
        PtxType::Int { bits, signed }
    }

    /// A float type of `bits` bits (`brain`: bfloat16).
    pub const fn float(bits: u8, brain: bool) -> PtxType {
        PtxType::Float { bits, brain }
    }

    /// Reads a type name without its dot (`u32`, `f32`, `pred`).
    pub fn from_name(s: &str) -> Option<PtxType> {
        let int = PtxType::int;
        Some(match s {
            "pred" => PtxType::Pred,
            "b8" | "u8" => int(8, false),
            "s8" => int(8, true),
            "b16" | "u16" => PtxType::U16,
            "s16" => int(16, true),
            "b32" | "u32" => PtxType::U32,
            "s32" => PtxType::S32,
            "b64" | "u64" => PtxType::U64,
            "s64" => int(64, true),
            "f16" => PtxType::F16,
            "bf16" => PtxType::BF16,
            "f32" => PtxType::F32,
            "f64" => PtxType::F64,
            "texref" => PtxType::TexRef,
            _ => return None,
        })
    }

    /// Size in bytes (predicates take one).
    pub fn bytes(self) -> u64 {
        match self {
            PtxType::Pred => 1,
            PtxType::Int { bits, .. } | PtxType::Float { bits, .. } => u64::from(bits / 8),
            PtxType::TexRef => 8,
        }
    }
}

/// A variable declaration: module scope, or in a function body.
#[derive(Clone, Debug, PartialEq)]
pub struct VarDecl {
    /// Its state space.
    pub space: StateSpace,
    /// `.extern`.
    pub external: bool,
    /// `.align N`.
    pub align: Option<u64>,
    /// Element type.
    pub ty: PtxType,
    /// Name.
    pub name: String,
    /// Array dimensions; `None` for `[]` (unsized, `.extern .shared`).
    pub dims: Vec<Option<u64>>,
    /// `<N>`: a range of registers `name0` .. `name{N-1}`.
    pub range: Option<u32>,
    /// Initialiser elements, flattened.
    pub init: Option<Vec<Init>>,
    /// Where it is declared.
    pub pos: Pos,
}

impl VarDecl {
    /// Number of elements (1 for scalars; 0 for unsized arrays).
    pub fn count(&self) -> u64 {
        self.dims
            .iter()
            .map(|d| d.unwrap_or(0))
            .fold(1u64, |a, b| a.saturating_mul(b))
    }
}

/// One initialiser element.
#[derive(Clone, Debug, PartialEq)]
pub enum Init {
    /// An integer or the bits of a float literal.
    Num(Num),
    /// The address of a symbol (`generic(sym)` or `sym`), plus an offset.
    Addr(String, i64),
}

/// A numeric literal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Num {
    /// An integer (two's complement bits).
    Int(i64),
    /// `0fXXXXXXXX`: single-precision bits.
    F32(u32),
    /// `0dXXXXXXXXXXXXXXXX`: double-precision bits.
    F64(u64),
    /// A decimal float literal.
    Dec(f64),
}

/// A function parameter (or return parameter).
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// Type (for `.b8 name[N]` aggregates, `.b8`).
    pub ty: PtxType,
    /// `.align N`.
    pub align: Option<u64>,
    /// Name.
    pub name: String,
    /// `[N]`: an aggregate of N elements.
    pub array: Option<u64>,
    /// Where.
    pub pos: Pos,
}

impl Param {
    /// Size in bytes.
    pub fn bytes(&self) -> u64 {
        self.ty.bytes().saturating_mul(self.array.unwrap_or(1))
    }
}

/// A `.entry` or `.func`.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    /// `.entry` (a kernel) rather than `.func`.
    pub entry: bool,
    /// Name.
    pub name: String,
    /// Return parameters (`.func` only).
    pub rets: Vec<Param>,
    /// Parameters.
    pub params: Vec<Param>,
    /// The body; `None` for a declaration.
    pub body: Option<Vec<Stmt>>,
    /// `name: .callprototype ...` declarations of the body: the signatures
    /// its indirect calls name.
    pub prototypes: Vec<Prototype>,
    /// Where.
    pub pos: Pos,
}

/// `label: .callprototype (rets) _ (params);`: the signature of an
/// indirect call.
#[derive(Clone, Debug, PartialEq)]
pub struct Prototype {
    /// The label that names it.
    pub name: String,
    /// Return parameters.
    pub rets: Vec<Param>,
    /// Parameters.
    pub params: Vec<Param>,
    /// Where.
    pub pos: Pos,
}

/// A statement of a function body.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// `name:`
    Label(String, Pos),
    /// A variable or register declaration.
    Var(VarDecl),
    /// An instruction, decoded.
    Inst(Inst),
    /// `.branchtargets a, b, ...;`: the jump table of `brx.idx`, named by
    /// the label before it.
    Targets(Vec<String>, Pos),
}

impl Stmt {
    /// The instruction this statement is, if it is one.
    pub fn inst(&self) -> Option<&Inst> {
        match self {
            Stmt::Inst(i) => Some(i),
            _ => None,
        }
    }
}

/// An instruction operand.
#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    /// A register (`%r1`, `%tid.x`), possibly negated (`!%p`).
    Reg(String, bool),
    /// A symbol: variable, function or label.
    Sym(String),
    /// A literal.
    Imm(Num),
    /// `[base+offset]`.
    Addr(Box<Operand>, i64),
    /// `{a, b, ...}`: a vector.
    Vec(Vec<Operand>),
    /// `(a, b, ...)`: a call's argument or return list.
    List(Vec<Operand>),
    /// `[handle, {coords}]`: a texture operand.
    Tex(Box<Operand>, Vec<Operand>),
    /// `_`: a discarded result.
    Sink,
}

/// A parsed module.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PtxModule {
    /// `.file N "path"` directives (nvcc's `-lineinfo`/`-G`): source files
    /// that `.loc` lines name by number.
    pub files: Vec<(u32, String)>,
    /// `.version`.
    pub version: Option<String>,
    /// `.target` values.
    pub target: Vec<String>,
    /// `.address_size`.
    pub address_size: Option<u64>,
    /// Module-scope variables in order.
    pub vars: Vec<VarDecl>,
    /// Functions in order (declarations included).
    pub functions: Vec<Function>,
}
