//! Affine stream patterns and the SSR configuration that produces them.
//!
//! A pattern is what a compiler knows about an access: a base address, up
//! to four loop dimensions (innermost first) each with an iteration count
//! and a byte stride, and how many times each element is delivered. The
//! data movers want something else: bounds as counts − 1 and, per
//! dimension, the pointer increment when that dimension advances, which is
//! its stride minus the distance the inner dimensions travelled:
//! `inc_d = stride_d − Σ_{k<d} stride_k · (count_k − 1)`. This module does
//! that translation once, for the compiler and for tests.

use crate::isa::{load_immediate, Inst, XReg};
use crate::sim::ssr::{NUM_DIMS, REG_BOUNDS, REG_REPEAT, REG_RPTR, REG_STRIDES, REG_WPTR};

/// One loop dimension of a stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dim {
    /// Iterations (at least 1).
    pub count: u32,
    /// Bytes between consecutive iterations.
    pub stride: i32,
}

/// Whether the stream feeds reads of its register or takes its writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Reads of `ft<mover>` deliver the elements.
    Read,
    /// Writes to `ft<mover>` store the elements.
    Write,
}

/// An affine access pattern of 64-bit elements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreamPattern {
    /// Address of the first element.
    pub base: u32,
    /// Dimensions, innermost first (1 to 4).
    pub dims: Vec<Dim>,
    /// Deliveries of each element (at least 1; reads only).
    pub repeat: u32,
}

/// A pattern the data movers cannot run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StreamError {
    /// No dimension, or more than four.
    #[error("a stream has 1 to {NUM_DIMS} dimensions, not {0}")]
    Dims(usize),
    /// A dimension with no iteration.
    #[error("dimension {0} has a count of 0")]
    EmptyDim(usize),
    /// A repeat count of 0, or a repeated write stream.
    #[error("repeat {repeat} is invalid for a {dir:?} stream")]
    Repeat {
        /// The repeat count.
        repeat: u32,
        /// The direction.
        dir: Direction,
    },
    /// A mover other than 0, 1 or 2.
    #[error("there is no data mover {0}")]
    Mover(u8),
}

impl StreamPattern {
    /// A 1-D pattern of `count` elements `stride` bytes apart.
    pub fn linear(base: u32, count: u32, stride: i32) -> StreamPattern {
        StreamPattern {
            base,
            dims: vec![Dim { count, stride }],
            repeat: 1,
        }
    }

    fn check(&self, mover: u8, dir: Direction) -> Result<(), StreamError> {
        if self.dims.is_empty() || self.dims.len() > NUM_DIMS {
            return Err(StreamError::Dims(self.dims.len()));
        }
        if let Some(d) = self.dims.iter().position(|d| d.count == 0) {
            return Err(StreamError::EmptyDim(d));
        }
        if self.repeat == 0 || (dir == Direction::Write && self.repeat != 1) {
            return Err(StreamError::Repeat {
                repeat: self.repeat,
                dir,
            });
        }
        if mover > 2 {
            return Err(StreamError::Mover(mover));
        }
        Ok(())
    }

    /// The configuration writes, as (`scfgwi` address, value) pairs, that
    /// make `mover` run this pattern; the pointer write, which starts the
    /// job, comes last.
    pub fn config_writes(&self, mover: u8, dir: Direction) -> Result<Vec<(u16, u32)>, StreamError> {
        self.check(mover, dir)?;
        let addr = |reg: u32| ((reg << 5) | u32::from(mover)) as u16;
        let mut out = vec![(addr(REG_REPEAT), self.repeat - 1)];
        let mut travelled: i64 = 0;
        for (d, dim) in self.dims.iter().enumerate() {
            let inc = i64::from(dim.stride) - travelled;
            out.push((addr(REG_BOUNDS + d as u32), dim.count - 1));
            out.push((addr(REG_STRIDES + d as u32), inc as u32));
            travelled += i64::from(dim.stride) * i64::from(dim.count - 1);
        }
        let last = (self.dims.len() - 1) as u32;
        let pointer = match dir {
            Direction::Read => REG_RPTR,
            Direction::Write => REG_WPTR,
        };
        out.push((addr(pointer + last), self.base));
        Ok(out)
    }

    /// Instructions that configure `mover`: for each write, `li scratch,
    /// value` and `scfgwi scratch, address` (`scfgwi zero, ...` for 0).
    pub fn configure(
        &self,
        mover: u8,
        dir: Direction,
        scratch: XReg,
    ) -> Result<Vec<Inst>, StreamError> {
        let mut out = Vec::new();
        for (addr, value) in self.config_writes(mover, dir)? {
            let rs1 = if value == 0 {
                XReg::ZERO
            } else {
                out.extend(load_immediate(scratch, value));
                scratch
            };
            out.push(Inst::Scfgwi { rs1, addr });
        }
        Ok(out)
    }

    /// The element addresses in delivery order (repeats included).
    pub fn addresses(&self) -> Vec<u32> {
        let mut out = Vec::new();
        let total: u64 = self.dims.iter().map(|d| u64::from(d.count)).product();
        for mut i in 0..total {
            let mut a = i64::from(self.base);
            for d in &self.dims {
                a += i64::from(d.stride) * (i % u64::from(d.count)) as i64;
                i /= u64::from(d.count);
            }
            for _ in 0..self.repeat {
                out.push(a as u32);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::ssr::{config_target, DataMover};
    use crate::sim::Tcdm;
    use crate::testgen::Rng;

    /// Random patterns configured into a data mover deliver exactly the
    /// addresses the pattern describes (memory holds each word's address).
    #[test]
    fn configured_movers_walk_the_pattern() {
        let mut mem = Tcdm::new(0, 1 << 16);
        for a in (0..1u32 << 16).step_by(8) {
            mem.write(a, 8, u64::from(a)).expect("in bounds");
        }
        let mut rng = Rng(5);
        for _ in 0..300 {
            let ndims = rng.range(1, 4) as usize;
            let dims: Vec<Dim> = (0..ndims)
                .map(|_| Dim {
                    count: rng.range(1, 5) as u32,
                    stride: rng.range(-8, 8) as i32 * 8,
                })
                .collect();
            let pattern = StreamPattern {
                base: 0x8000,
                dims,
                repeat: rng.range(1, 3) as u32,
            };
            let mut m = DataMover::new(1);
            for (addr, value) in pattern.config_writes(1, Direction::Read).expect("valid") {
                let (reg, movers) = config_target(addr.into()).expect("valid address");
                assert_eq!(movers, 1..2);
                m.write_config(reg, value, 0).expect("idle mover");
            }
            let got: Vec<u32> = pattern
                .addresses()
                .iter()
                .map(|_| m.pop(&mem).map(|t| t.value as u32).unwrap_or(u32::MAX))
                .collect();
            assert_eq!(got, pattern.addresses(), "{pattern:?}");
            assert!(m.pop(&mem).is_err(), "{pattern:?} delivers too much");
        }
    }

    #[test]
    fn invalid_patterns_are_errors() {
        let p = StreamPattern::linear(0, 4, 8);
        assert_eq!(
            p.config_writes(3, Direction::Read),
            Err(StreamError::Mover(3))
        );
        let empty = StreamPattern {
            dims: vec![],
            ..p.clone()
        };
        assert_eq!(
            empty.config_writes(0, Direction::Read),
            Err(StreamError::Dims(0))
        );
        let rep = StreamPattern {
            repeat: 2,
            ..p.clone()
        };
        assert!(matches!(
            rep.config_writes(2, Direction::Write),
            Err(StreamError::Repeat { .. })
        ));
        let zero = StreamPattern {
            dims: vec![Dim {
                count: 0,
                stride: 8,
            }],
            ..p
        };
        assert_eq!(
            zero.config_writes(0, Direction::Read),
            Err(StreamError::EmptyDim(0))
        );
    }

    #[test]
    fn configure_emits_li_and_scfgwi() {
        let p = StreamPattern::linear(0x1000_0000, 200, 8);
        let insts = p
            .configure(0, Direction::Read, XReg::new(5).expect("t0"))
            .expect("valid");
        let text: Vec<String> = insts.iter().map(|i| i.to_string()).collect();
        assert_eq!(
            text,
            [
                "scfgwi zero, 32",
                "addi t0, zero, 199",
                "scfgwi t0, 64",
                "addi t0, zero, 8",
                "scfgwi t0, 192",
                "lui t0, 65536",
                "scfgwi t0, 768"
            ]
        );
    }
}
