//! cucc's one ELF reader: section contents (the device link reads
//! `.cucc_ir` and `__nv_module_id` from objects), symbols and `DT_RPATH`
//! (`cucc run` inspects programs), and the symbols and loadable segments
//! the runtime needs to redirect a statically linked NVIDIA runtime inside a
//! program to its own entry points. Only 64-bit little-endian images, the
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

/// Program header type of a loadable segment.
const PT_LOAD: u32 = 1;
/// Symbol type of a function.
const STT_FUNC: u8 = 2;

/// One symbol of `.symtab` or `.dynsym`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Symbol<'a> {
    /// Its name.
    pub name: &'a [u8],
    /// Its value: for a defined function, its address in the image
    /// (before any load bias).
    pub value: u64,
    /// Its size in bytes (0 if unknown).
    pub size: u64,
    /// A function (`STT_FUNC`).
    pub function: bool,
    /// Defined in this image (not `SHN_UNDEF`).
    pub defined: bool,
}

/// One loadable segment (`PT_LOAD`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    /// Its address in the image (before any load bias).
    pub vaddr: u64,
    /// Its size in memory.
    pub memsz: u64,
    /// `PF_X` (1), `PF_W` (2), `PF_R` (4).
    pub flags: u32,
}

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
        Ok(self
            .symbol_table(|_| true)?
            .into_iter()
            .map(|s| (s.name, s.defined))
            .collect())
    }

    /// Every symbol of the static symbol table (`.symtab`, which a stripped
    /// image lacks: then none), with its address and size.
    pub fn static_symbols(&self) -> Result<Vec<Symbol<'a>>, Damaged> {
        self.symbol_table(|kind| kind == SHT_SYMTAB)
    }

    fn symbol_table(&self, want: impl Fn(u32) -> bool) -> Result<Vec<Symbol<'a>>, Damaged> {
        let mut out = Vec::new();
        for s in &self.sections {
            if (s.kind != SHT_SYMTAB && s.kind != SHT_DYNSYM) || !want(s.kind) {
                continue;
            }
            let body = self.body(s)?;
            let strings = self.sections.get(s.link).ok_or(Damaged("symbol names"))?;
            let strings = self.body(strings)?;
            let bad = || Damaged("symbol");
            for sym in body.chunks_exact(s.entsize.max(24)) {
                let name = u32_at(sym, 0).ok_or_else(bad)? as usize;
                let info = *sym.get(4).ok_or_else(bad)?;
                let shndx = u16_at(sym, 6).ok_or_else(bad)?;
                out.push(Symbol {
                    name: c_str(strings, name).ok_or(Damaged("symbol name"))?,
                    value: u64_at(sym, 8).ok_or_else(bad)?,
                    size: u64_at(sym, 16).ok_or_else(bad)?,
                    function: info & 0xf == STT_FUNC,
                    defined: shndx != 0,
                });
            }
        }
        Ok(out)
    }

    /// The loadable segments, from the program header table (none in an
    /// object file).
    pub fn segments(&self) -> Result<Vec<Segment>, Damaged> {
        let d = self.data;
        let header = || Damaged("header");
        let phoff = u64_at(d, 0x20).ok_or_else(header)? as usize;
        let phentsize = usize::from(u16_at(d, 0x36).ok_or_else(header)?);
        let phnum = usize::from(u16_at(d, 0x38).ok_or_else(header)?);
        if phnum == 0 {
            return Ok(Vec::new());
        }
        if phentsize < 56 {
            return Err(Damaged("program header table"));
        }
        let mut out = Vec::new();
        for i in 0..phnum {
            let base = i
                .checked_mul(phentsize)
                .and_then(|o| o.checked_add(phoff))
                .ok_or(Damaged("program header table"))?;
            let field = |o: usize| u64_at(d, base + o).ok_or(Damaged("program header table"));
            let kind = u32_at(d, base).ok_or(Damaged("program header table"))?;
            if kind != PT_LOAD {
                continue;
            }
            out.push(Segment {
                flags: u32_at(d, base + 4).ok_or(Damaged("program header table"))?,
                vaddr: field(0x10)?,
                memsz: field(0x28)?,
            });
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
        // This test's own function is in `.symtab`, with an address inside
        // an executable segment and a size.
        let statics = elf.static_symbols().expect("intact");
        let me = statics
            .iter()
            .find(|s| {
                s.function
                    && s.defined
                    && String::from_utf8_lossy(s.name).contains("reads_this_test_binary")
            })
            .expect("this function's symbol");
        assert!(me.size > 0);
        let segments = elf.segments().expect("intact");
        assert!(segments
            .iter()
            .any(|g| g.flags & 1 != 0 && (g.vaddr..g.vaddr + g.memsz).contains(&me.value)));
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
                let _ = elf.static_symbols();
                let _ = elf.segments();
                let _ = elf.has_rpath();
                let _ = elf.section(b".text");
            }
        }
    }
}
