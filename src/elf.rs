//! The one ELF reader of the driver: section contents (the device link reads
//! `.cucc_ir` and `__nv_module_id` from objects), symbols and `DT_RPATH`
//! (`cucc run` inspects programs). Only 64-bit little-endian images, the
//! only kind cucc builds or runs; every offset is bounds-checked, so a
//! damaged file is an error, never a panic.

/// Section type of a symbol table.
const SHT_SYMTAB: u32 = 2;
/// Section type of the dynamic section.
const SHT_DYNAMIC: u32 = 6;
/// Section type of a section that occupies no file space.
const SHT_NOBITS: u32 = 8;
/// Section type of the dynamic symbol table.
const SHT_DYNSYM: u32 = 11;
/// The `.dynamic` tag of a run path searched before `LD_LIBRARY_PATH`.
const DT_RPATH: u64 = 15;

/// One section header.
#[derive(Clone, Copy, Debug)]
struct Section<'a> {
    name: &'a [u8],
    kind: u32,
    offset: usize,
    size: usize,
    link: usize,
    entsize: usize,
}

/// A parsed ELF64 little-endian image.
pub struct Elf<'a> {
    data: &'a [u8],
    sections: Vec<Section<'a>>,
}

/// Why an ELF image could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Damaged(pub &'static str);

impl std::fmt::Display for Damaged {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "damaged ELF image ({})", self.0)
    }
}

fn u16_at(d: &[u8], o: usize) -> Option<u16> {
    Some(u16::from_le_bytes(
        d.get(o..o.checked_add(2)?)?.try_into().ok()?,
    ))
}

fn u32_at(d: &[u8], o: usize) -> Option<u32> {
    Some(u32::from_le_bytes(
        d.get(o..o.checked_add(4)?)?.try_into().ok()?,
    ))
}

fn u64_at(d: &[u8], o: usize) -> Option<u64> {
    Some(u64::from_le_bytes(
        d.get(o..o.checked_add(8)?)?.try_into().ok()?,
    ))
}

/// The NUL-terminated string at `o` of `d`.
fn c_str(d: &[u8], o: usize) -> Option<&[u8]> {
    let rest = d.get(o..)?;
    Some(&rest[..rest.iter().position(|&b| b == 0)?])
}

/// True if `data` starts with the ELF magic.
pub fn is_elf(data: &[u8]) -> bool {
    data.len() >= 64 && data[..4] == *b"\x7fELF"
}

impl<'a> Elf<'a> {
    /// Reads the section table of `data`: `Ok(None)` if it is not a 64-bit
    /// little-endian ELF image, `Err` if it is one but damaged.
    pub fn parse(data: &'a [u8]) -> Result<Option<Elf<'a>>, Damaged> {
        if !is_elf(data) || data[4] != 2 || data[5] != 1 {
            return Ok(None);
        }
        let header = Damaged("header");
        let table = Damaged("section table");
        let shoff = u64_at(data, 0x28).ok_or(header.clone())? as usize;
        let shentsize = usize::from(u16_at(data, 0x3a).ok_or(header.clone())?);
        let shnum = usize::from(u16_at(data, 0x3c).ok_or(header.clone())?);
        let shstrndx = usize::from(u16_at(data, 0x3e).ok_or(header)?);
        if shnum == 0 {
            return Ok(Some(Elf {
                data,
                sections: Vec::new(),
            }));
        }
        if shentsize < 64 || shstrndx >= shnum {
            return Err(table);
        }
        let raw = |i: usize| -> Option<(u32, u32, usize, usize, usize, usize)> {
            let base = shoff.checked_add(i.checked_mul(shentsize)?)?;
            Some((
                u32_at(data, base)?,
                u32_at(data, base + 4)?,
                u64_at(data, base + 0x18)? as usize,
                u64_at(data, base + 0x20)? as usize,
                u32_at(data, base + 0x28)? as usize,
                u64_at(data, base + 0x38)? as usize,
            ))
        };
        let (_, _, str_off, str_size, _, _) = raw(shstrndx).ok_or(table.clone())?;
        let names = str_off
            .checked_add(str_size)
            .and_then(|end| data.get(str_off..end))
            .ok_or(Damaged("section names"))?;
        let mut sections = Vec::with_capacity(shnum);
        for i in 0..shnum {
            let (name, kind, offset, size, link, entsize) = raw(i).ok_or(table.clone())?;
            let name = names
                .get(name as usize..)
                .map(|t| &t[..t.iter().position(|&b| b == 0).unwrap_or(t.len())])
                .unwrap_or(&[]);
            sections.push(Section {
                name,
                kind,
                offset,
                size,
                link,
                entsize,
            });
        }
        Ok(Some(Elf { data, sections }))
    }

    /// The names of all sections, in table order.
    pub fn section_names(&self) -> impl Iterator<Item = &'a [u8]> + '_ {
        self.sections.iter().map(|s| s.name)
    }

    fn body(&self, s: &Section<'a>) -> Result<&'a [u8], Damaged> {
        if s.kind == SHT_NOBITS {
            return Ok(&[]);
        }
        s.offset
            .checked_add(s.size)
            .and_then(|end| self.data.get(s.offset..end))
            .ok_or(Damaged("section past the end"))
    }

    /// The contents of the first section named `want` (empty for a section
    /// that occupies no file space).
    pub fn section(&self, want: &[u8]) -> Result<Option<&'a [u8]>, Damaged> {
        match self.sections.iter().find(|s| s.name == want) {
            Some(s) => self.body(s).map(Some),
            None => Ok(None),
        }
    }

    /// Every symbol of `.symtab` and `.dynsym` as (name, defined here).
    pub fn symbols(&self) -> Result<Vec<(&'a [u8], bool)>, Damaged> {
        let mut out = Vec::new();
        for s in &self.sections {
            if s.kind != SHT_SYMTAB && s.kind != SHT_DYNSYM {
                continue;
            }
            let body = self.body(s)?;
            let strings = self.sections.get(s.link).ok_or(Damaged("symbol names"))?;
            let strings = self.body(strings)?;
            for sym in body.chunks_exact(s.entsize.max(24)) {
                let name = u32_at(sym, 0).ok_or(Damaged("symbol"))? as usize;
                let shndx = u16_at(sym, 6).ok_or(Damaged("symbol"))?;
                let name = c_str(strings, name).ok_or(Damaged("symbol name"))?;
                out.push((name, shndx != 0));
            }
        }
        Ok(out)
    }

    /// True if `.dynamic` holds a `DT_RPATH` entry.
    pub fn has_rpath(&self) -> Result<bool, Damaged> {
        for s in self.sections.iter().filter(|s| s.kind == SHT_DYNAMIC) {
            let body = self.body(s)?;
            if body
                .chunks_exact(16)
                .any(|e| u64_at(e, 0) == Some(DT_RPATH))
            {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_this_test_binary() {
        let me = std::env::current_exe().expect("exe");
        let data = std::fs::read(me).expect("read");
        let elf = Elf::parse(&data).expect("intact").expect("an ELF64 image");
        assert!(elf.section_names().any(|n| n == b".text"));
        assert!(elf
            .section(b".text")
            .expect("intact")
            .is_some_and(|t| !t.is_empty()));
        assert!(elf.section(b".no-such-section").expect("intact").is_none());
        let symbols = elf.symbols().expect("intact");
        assert!(!symbols.is_empty());
    }

    #[test]
    fn not_elf_is_none_and_damage_is_an_error() {
        assert!(Elf::parse(b"not elf").expect("ok").is_none());
        let mut elf = vec![0u8; 64];
        elf[..4].copy_from_slice(b"\x7fELF");
        elf[4] = 2;
        elf[5] = 1;
        elf[0x28] = 0xff; // section table far past the end
        elf[0x3A] = 64;
        elf[0x3C] = 3;
        elf[0x3E] = 1;
        assert!(Elf::parse(&elf).is_err());
    }

    #[test]
    fn truncation_at_every_offset_is_not_a_panic() {
        let me = std::env::current_exe().expect("exe");
        let data = std::fs::read(me).expect("read");
        // The section table is at the end of the file: cut inside it.
        let step = (data.len() / 512).max(1);
        for len in (0..data.len()).step_by(step) {
            if let Ok(Some(elf)) = Elf::parse(&data[..len]) {
                let _ = elf.symbols();
                let _ = elf.has_rpath();
                let _ = elf.section(b".text");
            }
        }
    }
}
