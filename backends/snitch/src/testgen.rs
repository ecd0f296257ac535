//! Random instructions of every form, for the round-trip property tests
//! and the comparison with LLVM's assembler.

use crate::isa::*;

/// A small deterministic generator (xorshift64*), so property tests need no
/// extra dependency and are reproducible.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// A value in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % ((hi - lo + 1) as u64)) as i64
    }
    pub fn bool(&mut self) -> bool {
        self.next() & 1 == 1
    }
    pub fn x(&mut self) -> XReg {
        XReg::from_field(self.next() as u32)
    }
    pub fn f(&mut self) -> FReg {
        FReg::from_field(self.next() as u32)
    }
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[(self.next() % items.len() as u64) as usize]
    }
    fn simm12(&mut self) -> i32 {
        self.range(-2048, 2047) as i32
    }
    fn rm(&mut self) -> RoundingMode {
        self.pick(RoundingMode::ALL)
    }
}

/// Which instruction forms to generate.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Forms {
    /// RV32IMAFD only, in the operand ranges LLVM 16's assembler accepts
    /// (exact f64 conversions keep their implied `rne`, fences name at
    /// least one access kind).
    Standard,
    /// Everything the encoder accepts, Snitch extensions included.
    All,
}

/// One random instance of every instruction form (every op of every family
/// in every format), in a fixed order.
pub fn every_form(rng: &mut Rng, forms: Forms) -> Vec<Inst> {
    let mut v = Vec::new();
    let std = forms == Forms::Standard;
    v.push(Inst::Lui {
        rd: rng.x(),
        imm: rng.range(0, 0xfffff) as u32,
    });
    v.push(Inst::Auipc {
        rd: rng.x(),
        imm: rng.range(0, 0xfffff) as u32,
    });
    v.push(Inst::Jal {
        rd: rng.x(),
        offset: rng.range(-(1 << 19), (1 << 19) - 1) as i32 * 2,
    });
    v.push(Inst::Jalr {
        rd: rng.x(),
        rs1: rng.x(),
        offset: rng.simm12(),
    });
    for &op in BranchOp::ALL {
        v.push(Inst::Branch {
            op,
            rs1: rng.x(),
            rs2: rng.x(),
            offset: rng.range(-2048, 2047) as i32 * 2,
        });
    }
    for &op in LoadOp::ALL {
        v.push(Inst::Load {
            op,
            rd: rng.x(),
            rs1: rng.x(),
            offset: rng.simm12(),
        });
    }
    for &op in StoreOp::ALL {
        v.push(Inst::Store {
            op,
            rs2: rng.x(),
            rs1: rng.x(),
            offset: rng.simm12(),
        });
    }
    for &op in ImmOp::ALL {
        let imm = match op {
            ImmOp::Slli | ImmOp::Srli | ImmOp::Srai => rng.range(0, 31) as i32,
            _ => rng.simm12(),
        };
        v.push(Inst::OpImm {
            op,
            rd: rng.x(),
            rs1: rng.x(),
            imm,
        });
    }
    for &op in RegOp::ALL {
        v.push(Inst::Op {
            op,
            rd: rng.x(),
            rs1: rng.x(),
            rs2: rng.x(),
        });
    }
    let (lo, hi) = if std { (1, 15) } else { (0, 15) };
    v.push(Inst::Fence {
        pred: rng.range(lo, hi) as u8,
        succ: rng.range(lo, hi) as u8,
    });
    v.push(Inst::Ecall);
    v.push(Inst::Ebreak);
    for &op in AmoOp::ALL {
        let rs2 = if op == AmoOp::LrW {
            XReg::ZERO
        } else {
            rng.x()
        };
        v.push(Inst::Amo {
            op,
            rd: rng.x(),
            rs1: rng.x(),
            rs2,
            aq: rng.bool(),
            rl: rng.bool(),
        });
    }
    for &op in CsrOp::ALL {
        let any = rng.range(0, 0xfff) as u16;
        let csr = rng.pick(&[CSR_SSR, CSR_FCSR, CSR_MCYCLE, 0x340, any]);
        v.push(Inst::Csr {
            op,
            rd: rng.x(),
            csr,
            rs1: rng.x(),
        });
        v.push(Inst::CsrImm {
            op,
            rd: rng.x(),
            csr,
            uimm: rng.range(0, 31) as u8,
        });
    }
    for &fmt in FFmt::ALL {
        v.push(Inst::FLoad {
            fmt,
            rd: rng.f(),
            rs1: rng.x(),
            offset: rng.simm12(),
        });
        v.push(Inst::FStore {
            fmt,
            rs2: rng.f(),
            rs1: rng.x(),
            offset: rng.simm12(),
        });
        for &op in FArithOp::ALL {
            v.push(Inst::FArith {
                op,
                fmt,
                rd: rng.f(),
                rs1: rng.f(),
                rs2: rng.f(),
                rm: rng.rm(),
            });
        }
        v.push(Inst::FSqrt {
            fmt,
            rd: rng.f(),
            rs1: rng.f(),
            rm: rng.rm(),
        });
        for &op in FSgnjOp::ALL {
            v.push(Inst::FSgnj {
                op,
                fmt,
                rd: rng.f(),
                rs1: rng.f(),
                rs2: rng.f(),
            });
        }
        for &op in FMinMaxOp::ALL {
            v.push(Inst::FMinMax {
                op,
                fmt,
                rd: rng.f(),
                rs1: rng.f(),
                rs2: rng.f(),
            });
        }
        for &op in FmaOp::ALL {
            v.push(Inst::Fma {
                op,
                fmt,
                rd: rng.f(),
                rs1: rng.f(),
                rs2: rng.f(),
                rs3: rng.f(),
                rm: rng.rm(),
            });
        }
        for &op in FCmpOp::ALL {
            v.push(Inst::FCmp {
                op,
                fmt,
                rd: rng.x(),
                rs1: rng.f(),
                rs2: rng.f(),
            });
        }
        v.push(Inst::FClass {
            fmt,
            rd: rng.x(),
            rs1: rng.f(),
        });
        for unsigned in [false, true] {
            v.push(Inst::FCvtToInt {
                fmt,
                unsigned,
                rd: rng.x(),
                rs1: rng.f(),
                rm: rng.rm(),
            });
            let rm = if std && fmt == FFmt::D {
                RoundingMode::Rne
            } else {
                rng.rm()
            };
            v.push(Inst::FCvtFromInt {
                fmt,
                unsigned,
                rd: rng.f(),
                rs1: rng.x(),
                rm,
            });
        }
        let rm = if std && fmt == FFmt::D {
            RoundingMode::Rne
        } else {
            rng.rm()
        };
        v.push(Inst::FCvtFmt {
            to: fmt,
            rd: rng.f(),
            rs1: rng.f(),
            rm,
        });
    }
    v.push(Inst::FMvToInt {
        rd: rng.x(),
        rs1: rng.f(),
    });
    v.push(Inst::FMvFromInt {
        rd: rng.f(),
        rs1: rng.x(),
    });
    if std {
        return v;
    }
    v.push(Inst::Scfgwi {
        rs1: rng.x(),
        addr: rng.range(0, 0xfff) as u16,
    });
    v.push(Inst::Scfgri {
        rd: rng.x(),
        addr: rng.range(0, 0xfff) as u16,
    });
    v.push(Inst::Scfgw {
        rs1: rng.x(),
        rs2: rng.x(),
    });
    v.push(Inst::Scfgr {
        rd: rng.x(),
        rs2: rng.x(),
    });
    for &mode in FrepMode::ALL {
        v.push(Inst::Frep {
            mode,
            rs1: rng.x(),
            count: rng.range(1, 4096) as u16,
            stagger_max: rng.range(0, 7) as u8,
            stagger_mask: rng.range(0, 15) as u8,
        });
    }
    for &op in VfOp::ALL {
        v.push(Inst::Vf {
            op,
            rd: rng.f(),
            rs1: rng.f(),
            rs2: rng.f(),
        });
    }
    v
}
