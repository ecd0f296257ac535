//! Reader for NVIDIA fat binaries, the containers nvcc embeds in a program
//! (section `.nv_fatbin`) and hands to `__cudaRegisterFatBinary` through a
//! wrapper struct. cucc only needs the PTX they carry: [`parse`] reads the
//! header and entry table with every offset bounds-checked, [`Entry::contents`]
//! decompresses an entry (LZ4 block or Zstandard frame, the two schemes nvcc
//! uses), and [`best_ptx`] picks the PTX of the highest architecture.
//!
//! The facts this relies on are in `docs/jit.md`: a 16-byte header
//! (magic `0xBA55ED50`, version, header size, size of the entries), then
//! entries, each a header of at least 64 bytes followed by its payload.

mod lz4;

use std::borrow::Cow;
use std::io::Read;

/// Magic of the fat binary wrapper struct (`__fatBinC_Wrapper_t.magic`).
pub const WRAPPER_MAGIC: u32 = 0x466243b1;
/// Magic of a fat binary header.
pub const FATBIN_MAGIC: u32 = 0xBA55ED50;
/// Size of the fat binary header.
pub const HEADER_LEN: usize = 16;
/// Smallest entry header nvcc writes (64 bytes; PTX entries have 80).
pub const MIN_ENTRY_HEADER_LEN: usize = 64;
/// Largest fat binary cucc accepts (a corrupt size must not make it read gigabytes).
pub const MAX_FATBIN_LEN: u64 = 1 << 30;
/// Largest decompressed entry cucc accepts.
pub const MAX_ENTRY_LEN: u64 = 1 << 30;

/// Entry flag: the payload is an LZ4 block (`nvcc --compress-mode=speed`).
pub const FLAG_LZ4: u64 = 0x2000;
/// Entry flag: the payload is a Zstandard frame (nvcc 13's default compression).
pub const FLAG_ZSTD: u64 = 0x8000;

/// Why a fat binary cannot be read. Offsets are from the start of the fat binary.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FatbinError {
    /// The first four bytes are not [`FATBIN_MAGIC`].
    #[error("bad fat binary magic {found:#010x} (expected 0xba55ed50)")]
    BadMagic {
        /// What was found.
        found: u32,
    },
    /// A structure runs past the end of the data.
    #[error(
        "truncated fat binary: {what} at offset {offset} needs {need} bytes, only {have} present"
    )]
    Truncated {
        /// The structure.
        what: &'static str,
        /// Its offset.
        offset: u64,
        /// Bytes it needs.
        need: u64,
        /// Bytes available from `offset`.
        have: u64,
    },
    /// A field holds an impossible value.
    #[error("corrupt fat binary: {what} at offset {offset}")]
    Corrupt {
        /// What is wrong.
        what: String,
        /// Offset of the structure.
        offset: u64,
    },
    /// A compressed entry does not decompress to its recorded size.
    #[error("corrupt fat binary: entry at offset {offset} does not decompress ({what})")]
    Decompress {
        /// Offset of the entry header.
        offset: u64,
        /// The decoder's complaint.
        what: String,
    },
}

fn u16_at(d: &[u8], o: usize) -> u16 {
    u16::from_le_bytes([d[o], d[o + 1]])
}

fn u32_at(d: &[u8], o: usize) -> u32 {
    u32::from_le_bytes([d[o], d[o + 1], d[o + 2], d[o + 3]])
}

fn u64_at(d: &[u8], o: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&d[o..o + 8]);
    u64::from_le_bytes(b)
}

/// What an entry holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    /// PTX text.
    Ptx,
    /// A cubin (ELF for one SASS architecture).
    Elf,
    /// Something else (e.g. LTO IR); kept so it can be reported.
    Other(u16),
}

impl EntryKind {
    fn from_raw(v: u16) -> EntryKind {
        match v {
            1 => EntryKind::Ptx,
            2 => EntryKind::Elf,
            v => EntryKind::Other(v),
        }
    }
}

/// How an entry's payload is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// As is.
    None,
    /// One LZ4 block (no frame).
    Lz4,
    /// One Zstandard frame.
    Zstd,
}

/// One entry of a fat binary.
#[derive(Clone, Debug)]
pub struct Entry<'a> {
    /// Offset of the entry header in the fat binary.
    pub offset: usize,
    /// PTX, ELF or other.
    pub kind: EntryKind,
    /// Virtual (PTX) or real (ELF) architecture, e.g. 80 for `sm_80`.
    pub arch: u32,
    /// For PTX: the ISA version `(major, minor)`; for ELF the tool's version.
    pub version: (u16, u16),
    /// Raw flags (64-bit, compression, ...).
    pub flags: u64,
    /// Payload storage.
    pub compression: Compression,
    /// Size after decompression (the stored size when not compressed).
    pub uncompressed_len: u64,
    /// The stored payload (compressed bytes when compressed; without padding).
    pub payload: &'a [u8],
    /// The source file nvcc compiled (recorded with `-lineinfo` or `-G`);
    /// empty when not recorded.
    pub source: &'a [u8],
    /// For PTX: the options nvcc recorded for `ptxas` (`--compile-only` for
    /// relocatable device code); empty when there are none.
    pub options: &'a [u8],
}

impl<'a> Entry<'a> {
    /// The payload, decompressed.
    pub fn contents(&self) -> Result<Cow<'a, [u8]>, FatbinError> {
        let err = |what: String| FatbinError::Decompress {
            offset: self.offset as u64,
            what,
        };
        match self.compression {
            Compression::None => Ok(Cow::Borrowed(self.payload)),
            Compression::Lz4 => {
                let out = lz4::decompress_block(self.payload, self.uncompressed_len as usize)
                    .map_err(|e| err(format!("LZ4: {e}")))?;
                Ok(Cow::Owned(out))
            }
            Compression::Zstd => {
                let mut src = self.payload;
                let dec = ruzstd::decoding::StreamingDecoder::new(&mut src)
                    .map_err(|e| err(format!("Zstandard: {e}")))?;
                let mut out = Vec::with_capacity(self.uncompressed_len.min(1 << 24) as usize);
                dec.take(self.uncompressed_len + 1)
                    .read_to_end(&mut out)
                    .map_err(|e| err(format!("Zstandard: {e}")))?;
                if out.len() as u64 != self.uncompressed_len {
                    return Err(err(format!(
                        "Zstandard: {} bytes instead of {}",
                        out.len(),
                        self.uncompressed_len
                    )));
                }
                Ok(Cow::Owned(out))
            }
        }
    }

    /// Whether this is relocatable PTX (`nvcc -rdc=true`/`-dc`), which
    /// nvcc marks by recording `--compile-only` among its `ptxas` options:
    /// it must be device-linked with the program's other units.
    pub fn relocatable(&self) -> bool {
        String::from_utf8_lossy(self.options)
            .split_whitespace()
            .any(|o| o == "--compile-only" || o == "-c")
    }

    /// The PTX text of a PTX entry (trailing NULs removed).
    pub fn ptx_text(&self) -> Result<String, FatbinError> {
        let bytes = self.contents()?;
        let end = bytes.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
        String::from_utf8(bytes[..end].to_vec()).map_err(|e| FatbinError::Corrupt {
            what: format!(
                "PTX text is not UTF-8 (byte {})",
                e.utf8_error().valid_up_to()
            ),
            offset: self.offset as u64,
        })
    }
}

/// A parsed fat binary.
#[derive(Clone, Debug)]
pub struct Fatbin<'a> {
    /// Header version (1).
    pub version: u16,
    /// The entries, in order.
    pub entries: Vec<Entry<'a>>,
}

/// The total length (header plus entries) a fat binary header announces;
/// lets a caller copy exactly the fat binary out of process memory.
pub fn total_len(header: &[u8]) -> Result<usize, FatbinError> {
    need_bytes(
        "fat binary header",
        0,
        HEADER_LEN as u64,
        header.len() as u64,
    )?;
    let magic = u32_at(header, 0);
    if magic != FATBIN_MAGIC {
        return Err(FatbinError::BadMagic { found: magic });
    }
    let header_len = u64::from(u16_at(header, 6));
    let size = u64_at(header, 8);
    let total = header_len
        .checked_add(size)
        .filter(|&t| t <= MAX_FATBIN_LEN);
    match total {
        Some(t) if header_len >= HEADER_LEN as u64 => Ok(t as usize),
        _ => Err(FatbinError::Corrupt {
            what: format!("header size {header_len} with entries of {size} bytes"),
            offset: 0,
        }),
    }
}

/// Parses the fat binary at the start of `data`.
pub fn parse(data: &[u8]) -> Result<Fatbin<'_>, FatbinError> {
    let total = total_len(data)?;
    need_bytes("fat binary", 0, total as u64, data.len() as u64)?;
    let data = &data[..total];
    let version = u16_at(data, 4);
    let mut at = usize::from(u16_at(data, 6));
    let mut entries = Vec::new();
    while at < total {
        let (entry, next) = parse_entry(data, at)?;
        entries.push(entry);
        at = next;
    }
    Ok(Fatbin { version, entries })
}

/// `Truncated` unless `have` bytes cover the `need` that `what` at `offset`
/// takes: one check for every length read before the bytes are touched.
fn need_bytes(what: &'static str, offset: u64, need: u64, have: u64) -> Result<(), FatbinError> {
    if have < need {
        return Err(FatbinError::Truncated {
            what,
            offset,
            need,
            have,
        });
    }
    Ok(())
}

/// Parses the entry at `at`; returns it and the offset of the next one.
fn parse_entry(data: &[u8], at: usize) -> Result<(Entry<'_>, usize), FatbinError> {
    let have = (data.len() - at) as u64;
    need_bytes("entry header", at as u64, MIN_ENTRY_HEADER_LEN as u64, have)?;
    let corrupt = |what: String| FatbinError::Corrupt {
        what,
        offset: at as u64,
    };
    let kind = EntryKind::from_raw(u16_at(data, at));
    let header_len = u64::from(u32_at(data, at + 4));
    let padded = u64_at(data, at + 8);
    let stored = u64::from(u32_at(data, at + 0x10));
    let minor = u16_at(data, at + 0x18);
    let major = u16_at(data, at + 0x1a);
    let arch = u32_at(data, at + 0x1c);
    let flags = u64_at(data, at + 0x28);
    let uncompressed = u64_at(data, at + 0x38);
    if header_len < MIN_ENTRY_HEADER_LEN as u64 {
        return Err(corrupt(format!("entry header size {header_len}")));
    }
    let end = header_len
        .checked_add(padded)
        .filter(|&n| n <= have)
        .ok_or(FatbinError::Truncated {
            what: "entry",
            offset: at as u64,
            need: header_len.saturating_add(padded),
            have,
        })?;
    let payload_start = at + header_len as usize;
    let next = at + end as usize;
    let compression = match (flags & FLAG_LZ4 != 0, flags & FLAG_ZSTD != 0) {
        (false, false) => Compression::None,
        (true, false) => Compression::Lz4,
        (false, true) => Compression::Zstd,
        (true, true) => return Err(corrupt("entry flags name two compressions".into())),
    };
    let (payload_len, uncompressed_len) = if compression == Compression::None {
        (padded, padded)
    } else {
        if stored == 0 || stored > padded {
            return Err(corrupt(format!(
                "compressed size {stored} with a payload of {padded} bytes"
            )));
        }
        if uncompressed > MAX_ENTRY_LEN {
            return Err(corrupt(format!("decompressed size {uncompressed}")));
        }
        (stored, uncompressed)
    };
    let payload = &data[payload_start..payload_start + payload_len as usize];
    let (source, options) = header_strings(data, at, header_len as usize);
    Ok((
        Entry {
            offset: at,
            kind,
            arch,
            version: (major, minor),
            flags,
            compression,
            uncompressed_len,
            payload,
            source,
            options,
        },
        next,
    ))
}

/// The string of `size` bytes at `offset` from the entry header at `at`,
/// if it lies inside the header (`header_len` bytes) past the fixed fields;
/// without its NUL padding.
fn header_string(data: &[u8], at: usize, header_len: usize, offset: usize, size: usize) -> &[u8] {
    match offset.checked_add(size) {
        Some(end) if size > 0 && offset >= MIN_ENTRY_HEADER_LEN && end <= header_len => {
            let s = &data[at + offset..at + end];
            &s[..s.iter().position(|&b| b == 0).unwrap_or(s.len())]
        }
        _ => &[],
    }
}

/// The source file name and, for PTX, the `ptxas` options the entry header
/// at `at` records after its fixed fields (`header_len` bytes in all). The
/// name (nvcc `-lineinfo`, `-G`) is described at 0x20 (`u32` offset from
/// the entry header, `u32` size); the options by an (offset, size) pair of
/// `u32`s at 0x40, or after the name (NUL-terminated, padded to 8 bytes)
/// when there is one. Anything outside the header is ignored: both only
/// inform.
fn header_strings(data: &[u8], at: usize, header_len: usize) -> (&[u8], &[u8]) {
    let name_offset = u32_at(data, at + 0x20) as usize;
    let name_size = u32_at(data, at + 0x24) as usize;
    let name = header_string(data, at, header_len, name_offset, name_size);
    if EntryKind::from_raw(u16_at(data, at)) != EntryKind::Ptx {
        return (name, &[]);
    }
    let pair = if name.is_empty() {
        MIN_ENTRY_HEADER_LEN
    } else {
        (name_offset + name_size + 1).next_multiple_of(8)
    };
    if pair.checked_add(8).is_none_or(|end| end > header_len) {
        return (name, &[]);
    }
    let offset = u32_at(data, at + pair) as usize;
    let size = u32_at(data, at + pair + 4) as usize;
    let options = if offset >= pair + 8 {
        header_string(data, at, header_len, offset, size)
    } else {
        &[]
    };
    (name, options)
}

/// The PTX entry of the highest architecture (the latest ISA features), if any.
pub fn best_ptx<'e, 'a>(fatbin: &'e Fatbin<'a>) -> Option<&'e Entry<'a>> {
    fatbin
        .entries
        .iter()
        .filter(|e| e.kind == EntryKind::Ptx)
        .max_by_key(|e| (e.arch, e.version))
}

#[cfg(test)]
mod tests;
