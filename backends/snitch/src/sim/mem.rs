//! The TCDM: the cluster's software-managed L1 scratchpad, a flat byte
//! array at a base address. Every access is bounds- and alignment-checked
//! and a bad one is a [`MemFault`], never a panic.

/// Why an access failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MemFault {
    /// The access leaves the TCDM.
    #[error("{size}-byte access at {addr:#010x} is outside the TCDM ({base:#010x}..{end:#010x})")]
    OutOfBounds {
        /// The address.
        addr: u32,
        /// The access size in bytes.
        size: u32,
        /// The TCDM's first address.
        base: u32,
        /// One past its last address.
        end: u64,
    },
    /// The address is not a multiple of the access size.
    #[error("{size}-byte access at {addr:#010x} is misaligned")]
    Misaligned {
        /// The address.
        addr: u32,
        /// The access size in bytes.
        size: u32,
    },
}

/// Tightly coupled data memory.
#[derive(Clone, Debug)]
pub struct Tcdm {
    base: u32,
    bytes: Vec<u8>,
}

impl Tcdm {
    /// A zero-filled TCDM of `size` bytes at `base`.
    pub fn new(base: u32, size: usize) -> Tcdm {
        Tcdm {
            base,
            bytes: vec![0; size],
        }
    }

    /// The first address.
    pub fn base(&self) -> u32 {
        self.base
    }

    /// The size in bytes.
    pub fn size(&self) -> usize {
        self.bytes.len()
    }

    /// One past the last address.
    pub fn end(&self) -> u64 {
        u64::from(self.base) + self.bytes.len() as u64
    }

    fn range(
        &self,
        addr: u32,
        size: u32,
        aligned: bool,
    ) -> Result<std::ops::Range<usize>, MemFault> {
        if aligned && size > 1 && addr % size != 0 {
            return Err(MemFault::Misaligned { addr, size });
        }
        let start = u64::from(addr).wrapping_sub(u64::from(self.base));
        if addr < self.base || start + u64::from(size) > self.bytes.len() as u64 {
            return Err(MemFault::OutOfBounds {
                addr,
                size,
                base: self.base,
                end: self.end(),
            });
        }
        Ok(start as usize..(start + u64::from(size)) as usize)
    }

    /// Reads a naturally aligned little-endian value of 1, 2, 4 or 8 bytes.
    pub fn read(&self, addr: u32, size: u32) -> Result<u64, MemFault> {
        let r = self.range(addr, size, true)?;
        Ok(self.bytes[r]
            .iter()
            .rev()
            .fold(0u64, |v, b| (v << 8) | u64::from(*b)))
    }

    /// Writes the low `size` bytes of `value`, little-endian, naturally aligned.
    pub fn write(&mut self, addr: u32, size: u32, value: u64) -> Result<(), MemFault> {
        let r = self.range(addr, size, true)?;
        for (i, b) in self.bytes[r].iter_mut().enumerate() {
            *b = (value >> (8 * i)) as u8;
        }
        Ok(())
    }

    /// Copies `data` into memory at `addr`.
    pub fn write_bytes(&mut self, addr: u32, data: &[u8]) -> Result<(), MemFault> {
        let size = u32::try_from(data.len()).unwrap_or(u32::MAX);
        let r = self.range(addr, size, false)?;
        self.bytes[r].copy_from_slice(data);
        Ok(())
    }

    /// The `len` bytes at `addr`.
    pub fn read_bytes(&self, addr: u32, len: usize) -> Result<&[u8], MemFault> {
        let size = u32::try_from(len).unwrap_or(u32::MAX);
        let r = self.range(addr, size, false)?;
        Ok(&self.bytes[r])
    }

    /// Stores values of `N` little-endian bytes each contiguously from `addr`.
    fn write_le<T: Copy, const N: usize>(
        &mut self,
        addr: u32,
        values: &[T],
        to_le: fn(T) -> [u8; N],
    ) -> Result<(), MemFault> {
        let bytes: Vec<u8> = values.iter().flat_map(|&v| to_le(v)).collect();
        self.write_bytes(addr, &bytes)
    }

    /// Reads `n` contiguous values of `N` little-endian bytes from `addr`.
    fn read_le<T, const N: usize>(
        &self,
        addr: u32,
        n: usize,
        from_le: fn([u8; N]) -> T,
    ) -> Result<Vec<T>, MemFault> {
        let b = self.read_bytes(addr, n * N)?;
        Ok(b.chunks_exact(N)
            .map(|c| {
                let mut a = [0u8; N];
                a.copy_from_slice(c);
                from_le(a)
            })
            .collect())
    }

    /// Stores f64 values contiguously from `addr`.
    pub fn write_f64s(&mut self, addr: u32, values: &[f64]) -> Result<(), MemFault> {
        self.write_le(addr, values, f64::to_le_bytes)
    }

    /// Reads `n` contiguous f64 values from `addr`.
    pub fn read_f64s(&self, addr: u32, n: usize) -> Result<Vec<f64>, MemFault> {
        self.read_le(addr, n, f64::from_le_bytes)
    }

    /// Stores f32 values contiguously from `addr`.
    pub fn write_f32s(&mut self, addr: u32, values: &[f32]) -> Result<(), MemFault> {
        self.write_le(addr, values, f32::to_le_bytes)
    }

    /// Reads `n` contiguous f32 values from `addr`.
    pub fn read_f32s(&self, addr: u32, n: usize) -> Result<Vec<f32>, MemFault> {
        self.read_le(addr, n, f32::from_le_bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn little_endian_and_checked() {
        let mut m = Tcdm::new(0x1000, 64);
        m.write(0x1008, 8, 0x0102_0304_0506_0708)
            .expect("in bounds");
        assert_eq!(m.read(0x1008, 1), Ok(0x08));
        assert_eq!(m.read(0x100c, 4), Ok(0x0102_0304));
        assert_eq!(
            m.read(0x1009, 4),
            Err(MemFault::Misaligned {
                addr: 0x1009,
                size: 4
            })
        );
        assert!(matches!(
            m.read(0x1040, 4),
            Err(MemFault::OutOfBounds { .. })
        ));
        assert!(matches!(
            m.read(0xffc, 4),
            Err(MemFault::OutOfBounds { .. })
        ));
        assert!(matches!(
            m.write_bytes(0x103f, &[1, 2]),
            Err(MemFault::OutOfBounds { .. })
        ));
        m.write_f64s(0x1010, &[1.5, -2.0]).expect("in bounds");
        assert_eq!(m.read_f64s(0x1010, 2), Ok(vec![1.5, -2.0]));
    }
}
