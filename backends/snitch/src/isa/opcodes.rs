//! Major opcodes and function codes, shared by the encoder and the decoder
//! so the two cannot disagree.
//!
//! Standard RV32IMAFD values follow the RISC-V Unprivileged ISA
//! specification (opcode map and instruction listings, chapter "RV32/64G
//! Instruction Set Listings"); they are checked against LLVM's assembler by
//! `tests/llvm_mc.rs`.
//!
//! Snitch's custom values follow the instruction definitions published with
//! snitch_cluster: the `riscv-opcodes` tables it builds from
//! (pulp-platform/riscv-opcodes, files `opcodes-ssr_CUSTOM`,
//! `opcodes-frep_CUSTOM` and `opcodes-flt-occamy_CUSTOM`) and the generated
//! match patterns in snitch_cluster's `hw/snitch/src/riscv_instr.sv`
//! (`SCFGRI`, `SCFGWI`, `SCFGR`, `SCFGW`, `FREP_O`, `VFADD_S`, `VFMUL_S`,
//! `VFMAX_S`, `VFMAC_S`, `VFCPKA_S_S`), and the SSR enable CSR
//! `CSR_SSR = 0x7c0` of the same file. Older Snitch releases placed Xssr and
//! Xfrep at other major opcodes; this crate follows the current
//! snitch_cluster. `encode.rs`'s tests hold words published for these
//! instructions.

pub const LUI: u32 = 0b011_0111;
pub const AUIPC: u32 = 0b001_0111;
pub const JAL: u32 = 0b110_1111;
pub const JALR: u32 = 0b110_0111;
pub const BRANCH: u32 = 0b110_0011;
pub const LOAD: u32 = 0b000_0011;
pub const STORE: u32 = 0b010_0011;
pub const OP_IMM: u32 = 0b001_0011;
pub const OP: u32 = 0b011_0011;
pub const MISC_MEM: u32 = 0b000_1111;
pub const SYSTEM: u32 = 0b111_0011;
pub const AMO: u32 = 0b010_1111;
pub const LOAD_FP: u32 = 0b000_0111;
pub const STORE_FP: u32 = 0b010_0111;
pub const OP_FP: u32 = 0b101_0011;
pub const MADD: u32 = 0b100_0011;
pub const MSUB: u32 = 0b100_0111;
pub const NMSUB: u32 = 0b100_1011;
pub const NMADD: u32 = 0b100_1111;

/// custom-0: Xfrep (`opcodes-frep_CUSTOM`: `6..2=0x02 1..0=3`; bit 7 set
/// for `frep.o`, clear for `frep.i`).
pub const CUSTOM_0: u32 = 0b000_1011;
/// custom-1: Xssr (`opcodes-ssr_CUSTOM`: `6..2=0x0A 1..0=3`).
pub const CUSTOM_1: u32 = 0b010_1011;

/// Xssr `funct3` of `scfgri`/`scfgr` (`14..12=1`).
pub const SCFG_READ_F3: u32 = 1;
/// Xssr `funct3` of `scfgwi`/`scfgw` (`14..12=2`).
pub const SCFG_WRITE_F3: u32 = 2;

/// Packed-SIMD `funct7` values (bits 31..25) on the OP major opcode with
/// `funct3 = 0` (`opcodes-flt-occamy_CUSTOM`: `31..30=2 29..25=...`, bit
/// 14 clear for the non-replicated forms).
pub const VFADD_S_F7: u32 = 0b100_0001;
pub const VFMUL_S_F7: u32 = 0b100_0011;
pub const VFMAX_S_F7: u32 = 0b100_0110;
pub const VFMAC_S_F7: u32 = 0b100_1000;
pub const VFCPKA_S_S_F7: u32 = 0b101_1000;

/// OP-FP `funct5` values (bits 31..27); bits 26..25 hold the format.
pub const FADD_F5: u32 = 0b00000;
pub const FSUB_F5: u32 = 0b00001;
pub const FMUL_F5: u32 = 0b00010;
pub const FDIV_F5: u32 = 0b00011;
pub const FSGNJ_F5: u32 = 0b00100;
pub const FMINMAX_F5: u32 = 0b00101;
pub const FCVT_FMT_F5: u32 = 0b01000;
pub const FSQRT_F5: u32 = 0b01011;
pub const FCMP_F5: u32 = 0b10100;
pub const FCVT_TO_INT_F5: u32 = 0b11000;
pub const FCVT_FROM_INT_F5: u32 = 0b11010;
pub const FMV_TO_INT_F5: u32 = 0b11100;
pub const FMV_FROM_INT_F5: u32 = 0b11110;

/// A-extension `funct5` values (bits 31..27).
pub const AMO_F5: [(crate::isa::AmoOp, u32); 11] = {
    use crate::isa::AmoOp::*;
    [
        (LrW, 0b00010),
        (ScW, 0b00011),
        (SwapW, 0b00001),
        (AddW, 0b00000),
        (XorW, 0b00100),
        (AndW, 0b01100),
        (OrW, 0b01000),
        (MinW, 0b10000),
        (MaxW, 0b10100),
        (MinuW, 0b11000),
        (MaxuW, 0b11100),
    ]
};
