//! The instruction set a Snitch core executes, as typed data.
//!
//! [`Inst`] covers the RV32IMAFD subset a compute kernel needs (integer
//! ALU and immediates, loads and stores, branches and jumps, `lui`/`auipc`,
//! multiply and divide, atomics, CSR access, and the F and D extensions'
//! loads, stores, arithmetic, fused multiply-add, compares, conversions and
//! moves) plus Snitch's custom extensions: Xssr (stream configuration with
//! `scfgwi`/`scfgri` and their register forms), Xfrep (`frep.o`, `frep.i`)
//! and the packed-SIMD subset on two f32 lanes (`vfadd.s`, `vfmul.s`,
//! `vfmac.s`, `vfmax.s`, `vfcpka.s.s`). SSRs are switched on and off with a
//! CSR instruction on [`CSR_SSR`].
//!
//! Immediates are stored as the value the instruction means (a byte offset,
//! a sign-extended constant), not as encoded bit fields; [`encode()`] checks
//! their range and [`decode()`] reverses it exactly.

pub mod decode;
pub mod encode;
mod opcodes;
pub mod reg;

#[cfg(test)]
mod llvm_check;

pub use decode::{decode, DecodeError};
pub use encode::{encode, EncodeError};
pub use reg::{FReg, XReg};

/// The CSR whose bit 0 switches stream semantics of `ft0`–`ft2` on and off.
pub const CSR_SSR: u16 = 0x7c0;
/// `fflags`, the accrued FP exception flags.
pub const CSR_FFLAGS: u16 = 0x001;
/// `frm`, the dynamic rounding mode.
pub const CSR_FRM: u16 = 0x002;
/// `fcsr`, `frm` and `fflags` together.
pub const CSR_FCSR: u16 = 0x003;
/// `mcycle`, the cycle counter (low word).
pub const CSR_MCYCLE: u16 = 0xb00;
/// `minstret`, retired instructions (low word).
pub const CSR_MINSTRET: u16 = 0xb02;
/// `mcycleh`, the cycle counter (high word).
pub const CSR_MCYCLEH: u16 = 0xb80;
/// `cycle`, the user-level alias of `mcycle`.
pub const CSR_CYCLE: u16 = 0xc00;
/// `mhartid`, the hardware thread id.
pub const CSR_MHARTID: u16 = 0xf14;

/// Declares a field-less operation enum with its assembly mnemonics.
macro_rules! op_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $v:ident => $s:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name { $($(#[$vm])* $v),+ }
        impl $name {
            /// Every variant, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$v),+];
            /// The assembly mnemonic (or its suffix where noted).
            pub fn mnemonic(self) -> &'static str {
                match self { $($name::$v => $s),+ }
            }
        }
    };
}

op_enum!(
    /// Conditional branches.
    BranchOp { Beq => "beq", Bne => "bne", Blt => "blt", Bge => "bge", Bltu => "bltu", Bgeu => "bgeu" }
);
op_enum!(
    /// Integer loads.
    LoadOp { Lb => "lb", Lh => "lh", Lw => "lw", Lbu => "lbu", Lhu => "lhu" }
);
op_enum!(
    /// Integer stores.
    StoreOp { Sb => "sb", Sh => "sh", Sw => "sw" }
);
op_enum!(
    /// Register-immediate ALU operations (shifts take a 5-bit amount).
    ImmOp {
        Addi => "addi", Slti => "slti", Sltiu => "sltiu", Xori => "xori", Ori => "ori",
        Andi => "andi", Slli => "slli", Srli => "srli", Srai => "srai",
    }
);
op_enum!(
    /// Register-register ALU operations, including the M extension.
    RegOp {
        Add => "add", Sub => "sub", Sll => "sll", Slt => "slt", Sltu => "sltu", Xor => "xor",
        Srl => "srl", Sra => "sra", Or => "or", And => "and", Mul => "mul", Mulh => "mulh",
        Mulhsu => "mulhsu", Mulhu => "mulhu", Div => "div", Divu => "divu", Rem => "rem",
        Remu => "remu",
    }
);
op_enum!(
    /// The A extension's word operations.
    AmoOp {
        LrW => "lr.w", ScW => "sc.w", SwapW => "amoswap.w", AddW => "amoadd.w",
        XorW => "amoxor.w", AndW => "amoand.w", OrW => "amoor.w", MinW => "amomin.w",
        MaxW => "amomax.w", MinuW => "amominu.w", MaxuW => "amomaxu.w",
    }
);
op_enum!(
    /// CSR read-modify-write kinds (`csrrw`, `csrrs`, `csrrc` and the
    /// immediate forms with an `i` suffix).
    CsrOp { Rw => "csrrw", Rs => "csrrs", Rc => "csrrc" }
);
op_enum!(
    /// Scalar FP formats (the mnemonic is the suffix letter).
    FFmt { S => "s", D => "d" }
);
op_enum!(
    /// Rounded FP arithmetic (mnemonic prefix).
    FArithOp { Add => "fadd", Sub => "fsub", Mul => "fmul", Div => "fdiv" }
);
op_enum!(
    /// Sign injection (mnemonic prefix).
    FSgnjOp { Sgnj => "fsgnj", Sgnjn => "fsgnjn", Sgnjx => "fsgnjx" }
);
op_enum!(
    /// FP minimum and maximum (mnemonic prefix).
    FMinMaxOp { Min => "fmin", Max => "fmax" }
);
op_enum!(
    /// Fused multiply-add variants (mnemonic prefix).
    FmaOp { Madd => "fmadd", Msub => "fmsub", Nmsub => "fnmsub", Nmadd => "fnmadd" }
);
op_enum!(
    /// FP comparisons writing 0 or 1 to an integer register (mnemonic prefix).
    FCmpOp { Eq => "feq", Lt => "flt", Le => "fle" }
);
op_enum!(
    /// Static rounding modes; `Dyn` uses `frm` and is omitted when printing.
    RoundingMode { Rne => "rne", Rtz => "rtz", Rdn => "rdn", Rup => "rup", Rmm => "rmm", Dyn => "dyn" }
);
op_enum!(
    /// The packed-SIMD subset on two f32 lanes of a 64-bit FP register.
    VfOp { Add => "vfadd.s", Mul => "vfmul.s", Mac => "vfmac.s", Max => "vfmax.s", Cpka => "vfcpka.s.s" }
);
op_enum!(
    /// FREP modes: outer repeats the whole block, inner each instruction.
    FrepMode { Outer => "frep.o", Inner => "frep.i" }
);

impl RoundingMode {
    /// The 3-bit `rm` field.
    pub fn bits(self) -> u32 {
        match self {
            RoundingMode::Rne => 0,
            RoundingMode::Rtz => 1,
            RoundingMode::Rdn => 2,
            RoundingMode::Rup => 3,
            RoundingMode::Rmm => 4,
            RoundingMode::Dyn => 7,
        }
    }

    /// The mode an `rm` field holds; 5 and 6 are reserved.
    pub fn from_bits(b: u32) -> Option<RoundingMode> {
        Some(match b {
            0 => RoundingMode::Rne,
            1 => RoundingMode::Rtz,
            2 => RoundingMode::Rdn,
            3 => RoundingMode::Rup,
            4 => RoundingMode::Rmm,
            7 => RoundingMode::Dyn,
            _ => return None,
        })
    }
}

impl FFmt {
    /// The 2-bit `fmt` field of OP-FP and fused instructions.
    pub fn bits(self) -> u32 {
        match self {
            FFmt::S => 0,
            FFmt::D => 1,
        }
    }
}

/// One instruction. Field names follow the RISC-V specification: `rd` is
/// written, `rs1`/`rs2`/`rs3` are read; offsets are byte offsets relative
/// to the instruction (branches, `jal`) or to the base register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Inst {
    /// `lui rd, imm`: `rd = imm << 12` (`imm` is the 20-bit field).
    Lui { rd: XReg, imm: u32 },
    /// `auipc rd, imm`: `rd = pc + (imm << 12)`.
    Auipc { rd: XReg, imm: u32 },
    /// `jal rd, offset`.
    Jal { rd: XReg, offset: i32 },
    /// `jalr rd, offset(rs1)`.
    Jalr { rd: XReg, rs1: XReg, offset: i32 },
    /// Conditional branch to `pc + offset`.
    Branch {
        op: BranchOp,
        rs1: XReg,
        rs2: XReg,
        offset: i32,
    },
    /// Integer load from `rs1 + offset`.
    Load {
        op: LoadOp,
        rd: XReg,
        rs1: XReg,
        offset: i32,
    },
    /// Integer store of `rs2` to `rs1 + offset`.
    Store {
        op: StoreOp,
        rs2: XReg,
        rs1: XReg,
        offset: i32,
    },
    /// Register-immediate ALU operation (`imm` is the shift amount for shifts).
    OpImm {
        op: ImmOp,
        rd: XReg,
        rs1: XReg,
        imm: i32,
    },
    /// Register-register ALU operation.
    Op {
        op: RegOp,
        rd: XReg,
        rs1: XReg,
        rs2: XReg,
    },
    /// `fence pred, succ` (4-bit `iorw` sets).
    Fence { pred: u8, succ: u8 },
    /// `ecall`: ends a simulated program.
    Ecall,
    /// `ebreak`: ends a simulated program.
    Ebreak,
    /// Atomic memory operation on the word at `rs1` (`rs2` is zero for `lr.w`).
    Amo {
        op: AmoOp,
        rd: XReg,
        rs1: XReg,
        rs2: XReg,
        aq: bool,
        rl: bool,
    },
    /// `csrr{w,s,c} rd, csr, rs1`.
    Csr {
        op: CsrOp,
        rd: XReg,
        csr: u16,
        rs1: XReg,
    },
    /// `csrr{w,s,c}i rd, csr, uimm` (5-bit immediate).
    CsrImm {
        op: CsrOp,
        rd: XReg,
        csr: u16,
        uimm: u8,
    },
    /// `flw`/`fld rd, offset(rs1)`.
    FLoad {
        fmt: FFmt,
        rd: FReg,
        rs1: XReg,
        offset: i32,
    },
    /// `fsw`/`fsd rs2, offset(rs1)`.
    FStore {
        fmt: FFmt,
        rs2: FReg,
        rs1: XReg,
        offset: i32,
    },
    /// `fadd`/`fsub`/`fmul`/`fdiv`.
    FArith {
        op: FArithOp,
        fmt: FFmt,
        rd: FReg,
        rs1: FReg,
        rs2: FReg,
        rm: RoundingMode,
    },
    /// `fsqrt`.
    FSqrt {
        fmt: FFmt,
        rd: FReg,
        rs1: FReg,
        rm: RoundingMode,
    },
    /// Sign injection; `fsgnj rd, rs, rs` is the `fmv` move.
    FSgnj {
        op: FSgnjOp,
        fmt: FFmt,
        rd: FReg,
        rs1: FReg,
        rs2: FReg,
    },
    /// `fmin`/`fmax`.
    FMinMax {
        op: FMinMaxOp,
        fmt: FFmt,
        rd: FReg,
        rs1: FReg,
        rs2: FReg,
    },
    /// Fused multiply-add family: `rd = ±(rs1 * rs2) ± rs3`.
    Fma {
        op: FmaOp,
        fmt: FFmt,
        rd: FReg,
        rs1: FReg,
        rs2: FReg,
        rs3: FReg,
        rm: RoundingMode,
    },
    /// `feq`/`flt`/`fle` into an integer register.
    FCmp {
        op: FCmpOp,
        fmt: FFmt,
        rd: XReg,
        rs1: FReg,
        rs2: FReg,
    },
    /// `fclass` into an integer register.
    FClass { fmt: FFmt, rd: XReg, rs1: FReg },
    /// `fcvt.w[u].{s,d} rd, rs1`.
    FCvtToInt {
        fmt: FFmt,
        unsigned: bool,
        rd: XReg,
        rs1: FReg,
        rm: RoundingMode,
    },
    /// `fcvt.{s,d}.w[u] rd, rs1`.
    FCvtFromInt {
        fmt: FFmt,
        unsigned: bool,
        rd: FReg,
        rs1: XReg,
        rm: RoundingMode,
    },
    /// `fcvt.s.d` (`to` = S) or `fcvt.d.s` (`to` = D).
    FCvtFmt {
        to: FFmt,
        rd: FReg,
        rs1: FReg,
        rm: RoundingMode,
    },
    /// `fmv.x.w rd, rs1`: the low 32 bits of an FP register.
    FMvToInt { rd: XReg, rs1: FReg },
    /// `fmv.w.x rd, rs1`: an f32 bit pattern into an FP register (NaN-boxed).
    FMvFromInt { rd: FReg, rs1: XReg },
    /// `scfgwi rs1, addr`: write `rs1` to SSR configuration word `addr`
    /// (`register << 5 | data mover`).
    Scfgwi { rs1: XReg, addr: u16 },
    /// `scfgri rd, addr`: read SSR configuration word `addr`.
    Scfgri { rd: XReg, addr: u16 },
    /// `scfgw rs1, rs2`: write `rs1` to the configuration word whose address is in `rs2`.
    Scfgw { rs1: XReg, rs2: XReg },
    /// `scfgr rd, rs2`: read the configuration word whose address is in `rs2`.
    Scfgr { rd: XReg, rs2: XReg },
    /// `frep.o`/`frep.i rs1, count, stagger_max, stagger_mask`: repeat the
    /// next `count` FP instructions `rs1 + 1` times.
    Frep {
        mode: FrepMode,
        rs1: XReg,
        count: u16,
        stagger_max: u8,
        stagger_mask: u8,
    },
    /// Packed-SIMD operation on two f32 lanes.
    Vf {
        op: VfOp,
        rd: FReg,
        rs1: FReg,
        rs2: FReg,
    },
}

/// The `li rd, value` expansion: one `addi` when the value fits 12 signed
/// bits, else `lui` and, unless the low 12 bits are zero, `addi`.
pub fn load_immediate(rd: XReg, value: u32) -> Vec<Inst> {
    let v = value as i32;
    if (-2048..=2047).contains(&v) {
        return vec![Inst::OpImm {
            op: ImmOp::Addi,
            rd,
            rs1: XReg::ZERO,
            imm: v,
        }];
    }
    let hi = (v.wrapping_add(0x800) as u32) >> 12;
    let lo = v.wrapping_sub((hi << 12) as i32);
    let mut out = vec![Inst::Lui {
        rd,
        imm: hi & 0xfffff,
    }];
    if lo != 0 {
        out.push(Inst::OpImm {
            op: ImmOp::Addi,
            rd,
            rs1: rd,
            imm: lo,
        });
    }
    out
}

impl Inst {
    /// Whether the integer core hands this instruction to the FP subsystem
    /// (and so whether an FREP block counts it).
    pub fn is_fp(&self) -> bool {
        matches!(
            self,
            Inst::FLoad { .. }
                | Inst::FStore { .. }
                | Inst::FArith { .. }
                | Inst::FSqrt { .. }
                | Inst::FSgnj { .. }
                | Inst::FMinMax { .. }
                | Inst::Fma { .. }
                | Inst::FCmp { .. }
                | Inst::FClass { .. }
                | Inst::FCvtToInt { .. }
                | Inst::FCvtFromInt { .. }
                | Inst::FCvtFmt { .. }
                | Inst::FMvToInt { .. }
                | Inst::FMvFromInt { .. }
                | Inst::Vf { .. }
        )
    }

    /// Whether this is a control transfer (branch, `jal`, `jalr`).
    pub fn is_control(&self) -> bool {
        matches!(
            self,
            Inst::Branch { .. } | Inst::Jal { .. } | Inst::Jalr { .. }
        )
    }

    /// The relative target offset of a branch or `jal`.
    pub fn branch_offset(&self) -> Option<i32> {
        match *self {
            Inst::Branch { offset, .. } | Inst::Jal { offset, .. } => Some(offset),
            _ => None,
        }
    }

    /// The same instruction with its branch or `jal` offset replaced.
    pub fn with_branch_offset(self, new: i32) -> Inst {
        match self {
            Inst::Branch { op, rs1, rs2, .. } => Inst::Branch {
                op,
                rs1,
                rs2,
                offset: new,
            },
            Inst::Jal { rd, .. } => Inst::Jal { rd, offset: new },
            other => other,
        }
    }

    /// The full mnemonic, as printed (e.g. `fmadd.d`, `amoadd.w.aqrl`).
    pub fn mnemonic(&self) -> String {
        fn fp(prefix: &str, fmt: FFmt) -> String {
            format!("{prefix}.{}", fmt.mnemonic())
        }
        match *self {
            Inst::Lui { .. } => "lui".into(),
            Inst::Auipc { .. } => "auipc".into(),
            Inst::Jal { .. } => "jal".into(),
            Inst::Jalr { .. } => "jalr".into(),
            Inst::Branch { op, .. } => op.mnemonic().into(),
            Inst::Load { op, .. } => op.mnemonic().into(),
            Inst::Store { op, .. } => op.mnemonic().into(),
            Inst::OpImm { op, .. } => op.mnemonic().into(),
            Inst::Op { op, .. } => op.mnemonic().into(),
            Inst::Fence { .. } => "fence".into(),
            Inst::Ecall => "ecall".into(),
            Inst::Ebreak => "ebreak".into(),
            Inst::Amo { op, aq, rl, .. } => {
                let order = match (aq, rl) {
                    (false, false) => "",
                    (true, false) => ".aq",
                    (false, true) => ".rl",
                    (true, true) => ".aqrl",
                };
                format!("{}{order}", op.mnemonic())
            }
            Inst::Csr { op, .. } => op.mnemonic().into(),
            Inst::CsrImm { op, .. } => format!("{}i", op.mnemonic()),
            Inst::FLoad { fmt, .. } => match fmt {
                FFmt::S => "flw".into(),
                FFmt::D => "fld".into(),
            },
            Inst::FStore { fmt, .. } => match fmt {
                FFmt::S => "fsw".into(),
                FFmt::D => "fsd".into(),
            },
            Inst::FArith { op, fmt, .. } => fp(op.mnemonic(), fmt),
            Inst::FSqrt { fmt, .. } => fp("fsqrt", fmt),
            Inst::FSgnj { op, fmt, .. } => fp(op.mnemonic(), fmt),
            Inst::FMinMax { op, fmt, .. } => fp(op.mnemonic(), fmt),
            Inst::Fma { op, fmt, .. } => fp(op.mnemonic(), fmt),
            Inst::FCmp { op, fmt, .. } => fp(op.mnemonic(), fmt),
            Inst::FClass { fmt, .. } => fp("fclass", fmt),
            Inst::FCvtToInt { fmt, unsigned, .. } => {
                format!(
                    "fcvt.{}.{}",
                    if unsigned { "wu" } else { "w" },
                    fmt.mnemonic()
                )
            }
            Inst::FCvtFromInt { fmt, unsigned, .. } => {
                format!(
                    "fcvt.{}.{}",
                    fmt.mnemonic(),
                    if unsigned { "wu" } else { "w" }
                )
            }
            Inst::FCvtFmt { to, .. } => match to {
                FFmt::S => "fcvt.s.d".into(),
                FFmt::D => "fcvt.d.s".into(),
            },
            Inst::FMvToInt { .. } => "fmv.x.w".into(),
            Inst::FMvFromInt { .. } => "fmv.w.x".into(),
            Inst::Scfgwi { .. } => "scfgwi".into(),
            Inst::Scfgri { .. } => "scfgri".into(),
            Inst::Scfgw { .. } => "scfgw".into(),
            Inst::Scfgr { .. } => "scfgr".into(),
            Inst::Frep { mode, .. } => mode.mnemonic().into(),
            Inst::Vf { op, .. } => op.mnemonic().into(),
        }
    }
}
