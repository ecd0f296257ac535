//! The reader on fat binaries nvcc wrote (`runtime/tests/data/fatbin/`) and
//! on corrupted copies of them.

use super::*;

const ZSTD: &[u8] = include_bytes!("../../tests/data/fatbin/saxpy_zstd.fatbin");
const LZ4: &[u8] = include_bytes!("../../tests/data/fatbin/saxpy_lz4.fatbin");
const PLAIN: &[u8] = include_bytes!("../../tests/data/fatbin/saxpy_plain.fatbin");
const ELF: &[u8] = include_bytes!("../../tests/data/fatbin/saxpy_elf.fatbin");

fn ptx(data: &[u8]) -> String {
    let fb = parse(data).expect("parses");
    best_ptx(&fb).expect("has PTX").ptx_text().expect("decodes")
}

#[test]
fn reads_what_nvcc_writes() {
    let fb = parse(ZSTD).unwrap();
    assert_eq!(fb.version, 1);
    let kinds: Vec<_> = fb.entries.iter().map(|e| (e.kind, e.arch)).collect();
    assert_eq!(kinds, [(EntryKind::Elf, 80), (EntryKind::Ptx, 80)]);
    let p = &fb.entries[1];
    assert_eq!(p.compression, Compression::Zstd);
    assert_eq!(p.version.0, 9, "PTX ISA major version");
    let text = p.ptx_text().unwrap();
    assert!(text.contains(".target sm_80"), "{text}");
    assert!(text.contains(".visible .entry _Z5saxpyfPKfPfi("), "{text}");
    assert!(text.contains(".global .align 4 .f32 total;"), "{text}");
}

#[test]
fn all_compressions_give_the_same_ptx() {
    let plain = ptx(PLAIN);
    assert_eq!(ptx(ZSTD), plain);
    assert_eq!(ptx(LZ4), plain);
    let lz4 = parse(LZ4).unwrap();
    assert_eq!(best_ptx(&lz4).unwrap().compression, Compression::Lz4);
}

#[test]
fn best_ptx_is_the_highest_architecture() {
    let fb = parse(PLAIN).unwrap();
    let archs: Vec<_> = fb.entries.iter().map(|e| (e.kind, e.arch)).collect();
    assert_eq!(archs, [(EntryKind::Ptx, 75), (EntryKind::Ptx, 80)]);
    assert_eq!(best_ptx(&fb).unwrap().arch, 80);
}

#[test]
fn elf_only_has_no_ptx() {
    let fb = parse(ELF).unwrap();
    assert_eq!(fb.entries.len(), 1);
    assert_eq!(fb.entries[0].kind, EntryKind::Elf);
    assert!(best_ptx(&fb).is_none());
}

#[test]
fn every_truncation_is_an_error() {
    for data in [ZSTD, LZ4, PLAIN, ELF] {
        for len in 0..data.len() {
            assert!(parse(&data[..len]).is_err(), "length {len} parsed");
        }
    }
}

#[test]
fn bad_magic() {
    let mut d = ZSTD.to_vec();
    d[0] ^= 1;
    assert!(matches!(parse(&d), Err(FatbinError::BadMagic { .. })));
    let msg = parse(&d).unwrap_err().to_string();
    assert!(msg.contains("magic"), "{msg}");
}

#[test]
fn sizes_past_the_end() {
    // The header announces more entries than there are.
    let mut d = ZSTD.to_vec();
    d[8..16].copy_from_slice(&(ZSTD.len() as u64).to_le_bytes());
    assert!(matches!(parse(&d), Err(FatbinError::Truncated { .. })));
    // An absurd size is refused before anything is read.
    d[8..16].copy_from_slice(&u64::MAX.to_le_bytes());
    assert!(matches!(parse(&d), Err(FatbinError::Corrupt { .. })));
    // An entry's payload runs past the fat binary.
    let mut d = ZSTD.to_vec();
    let first = 16;
    d[first + 8..first + 16].copy_from_slice(&0x10_0000u64.to_le_bytes());
    let err = parse(&d).unwrap_err();
    assert!(
        matches!(err, FatbinError::Truncated { what: "entry", .. }),
        "{err}"
    );
    // An entry header shorter than the fixed fields.
    let mut d = ZSTD.to_vec();
    d[first + 4..first + 8].copy_from_slice(&8u32.to_le_bytes());
    assert!(matches!(parse(&d), Err(FatbinError::Corrupt { .. })));
}

fn ptx_entry_offset(data: &[u8]) -> usize {
    let fb = parse(data).unwrap();
    best_ptx(&fb).unwrap().offset
}

#[test]
fn bad_compression() {
    for data in [ZSTD, LZ4] {
        let at = ptx_entry_offset(data);
        let hlen = u32::from_le_bytes(data[at + 4..at + 8].try_into().unwrap()) as usize;
        // Wrong decompressed size.
        let mut d = data.to_vec();
        let n = u64::from_le_bytes(d[at + 0x38..at + 0x40].try_into().unwrap());
        d[at + 0x38..at + 0x40].copy_from_slice(&(n + 1).to_le_bytes());
        let fb = parse(&d).unwrap();
        let err = best_ptx(&fb).unwrap().contents().unwrap_err();
        assert!(matches!(err, FatbinError::Decompress { .. }), "{err}");
        // Garbage in the compressed bytes: an error or other bytes, never a panic.
        let stored = u32::from_le_bytes(data[at + 0x10..at + 0x14].try_into().unwrap()) as usize;
        let mut errors = 0;
        for i in 0..stored {
            let mut d = data.to_vec();
            d[at + hlen + i] ^= 0xa5;
            let fb = parse(&d).unwrap();
            if best_ptx(&fb).unwrap().contents().is_err() {
                errors += 1;
            }
        }
        assert!(errors > 0, "no corruption was detected");
        // A compressed size of zero or past the payload.
        let mut d = data.to_vec();
        d[at + 0x10..at + 0x14].copy_from_slice(&0u32.to_le_bytes());
        assert!(parse(&d).is_err());
        // Both compression flags at once.
        let mut d = data.to_vec();
        d[at + 0x28..at + 0x30].copy_from_slice(&(FLAG_LZ4 | FLAG_ZSTD | 0x11).to_le_bytes());
        assert!(parse(&d).is_err());
    }
}

#[test]
fn no_header_byte_makes_it_panic() {
    // Every byte of every header, set to a few values: errors or entries, no panic.
    for data in [ZSTD, LZ4, PLAIN] {
        let fb = parse(data).unwrap();
        let mut spans = vec![(0usize, HEADER_LEN)];
        spans.extend(fb.entries.iter().map(|e| (e.offset, MIN_ENTRY_HEADER_LEN)));
        for (start, len) in spans {
            for i in start..start + len {
                for v in [0u8, 1, 0x7f, 0xff] {
                    let mut d = data.to_vec();
                    d[i] = v;
                    if let Ok(fb) = parse(&d) {
                        for e in &fb.entries {
                            let _ = e.contents();
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn relocatable_ptx_is_recognised() {
    const RDC: &[u8] = include_bytes!("../../tests/data/fatbin/saxpy_rdc.fatbin");
    let fb = parse(RDC).unwrap();
    let p = best_ptx(&fb).unwrap();
    assert_eq!(String::from_utf8_lossy(p.options).trim(), "--compile-only");
    assert!(p.relocatable());
    assert!(p
        .ptx_text()
        .unwrap()
        .contains(".visible .entry _Z5saxpyfPKfPfi("));
    for data in [ZSTD, LZ4, PLAIN] {
        let fb = parse(data).unwrap();
        let p = best_ptx(&fb).unwrap();
        assert!(p.options.is_empty());
        assert!(!p.relocatable());
    }
    assert!(p.source.is_empty());
    // With -lineinfo the header names the source first; the options follow.
    const LINEINFO: &[u8] = include_bytes!("../../tests/data/fatbin/saxpy_rdc_lineinfo.fatbin");
    let fb = parse(LINEINFO).unwrap();
    let p = best_ptx(&fb).unwrap();
    assert_eq!(p.source, b"saxpy.cu");
    assert_eq!(
        String::from_utf8_lossy(p.options).trim(),
        "--compile-only  --generate-line-info"
    );
    assert!(p.relocatable());
    assert_eq!(fb.entries[0].source, b"saxpy.cu", "the cubin's too");
    assert!(fb.entries[0].options.is_empty());
    // Names and options pointing outside the entry header are ignored,
    // never read.
    let at = ptx_entry_offset(LINEINFO);
    for field in [0x20, 0x24, 0x50, 0x54] {
        for v in [0u32, 1, 0x47, 0x7f, 0x80, 0x1000, u32::MAX] {
            let mut d = LINEINFO.to_vec();
            d[at + field..at + field + 4].copy_from_slice(&v.to_le_bytes());
            let fb = parse(&d).unwrap();
            let p = best_ptx(&fb).unwrap();
            assert!(
                p.options.len() + p.source.len() <= 0x80 - 0x40,
                "{field:#x} = {v}"
            );
        }
    }
    let at = ptx_entry_offset(RDC);
    for field in [0x40, 0x44] {
        for v in [0u32, 1, 0x47, 0x5f, 0x60, 0x1000, u32::MAX] {
            let mut d = RDC.to_vec();
            d[at + field..at + field + 4].copy_from_slice(&v.to_le_bytes());
            let fb = parse(&d).unwrap();
            let p = best_ptx(&fb).unwrap();
            assert!(p.options.len() <= 0x60 - 0x48, "{field:#x} = {v}");
        }
    }
}
