//! Separate compilation (`-rdc=true`): device IR carried in objects.
//!
//! A unit compiled with `-rdc=true -c` cannot be translated on its own (it
//! may call device functions other units define), so its object carries its
//! device IR instead of its translated kernels: a record in the `.cucc_ir`
//! section. The host linker concatenates sections of the same name, so an
//! object made by `ld -r` or an archive member still holds whole records.
//! The device link (at the final link, or `-dlink`) reads every record of
//! the objects and archives it is given, completes each unit's imports from
//! the others (`cucc_ir::link`) and translates each unit under its own
//! module id.
//!
//! clang compiles the host half of such a unit with `-fgpu-rdc`: its device
//! variables' host shadows get external linkage (so units share them), and
//! its constructor calls `__cudaRegisterLinkedBinary<link id>` instead of
//! registering directly; the device link defines that function for each
//! unit ([`linked_binary_c`]).
//!
//! Record: `"CUCCIR01"`, the 16-byte module id, then two strings, each a
//! little-endian `u64` byte count and the bytes: the link id and the IR text.

use std::fmt::Write;
use std::path::Path;

/// The section holding device IR records.
pub const SECTION: &str = ".cucc_ir";
const MAGIC: &[u8; 8] = b"CUCCIR01";

/// One unit's device IR, as found in an object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The unit's module id (its host half registers kernels under it).
    pub id: [u8; 16],
    /// The id in the name of the registration entry its host half calls.
    pub link_id: String,
    /// The IR text.
    pub text: String,
    /// Where it was found, for messages: `lib.a(b.o)` or `b.o`.
    pub origin: String,
}

/// C source that places one record in the object's `.cucc_ir` section.
pub fn record_c(id: &[u8; 16], link_id: &str, text: &str) -> String {
    let bytes = record_bytes(id, link_id, text);
    let mut c = format!(
        "/* Device IR for separate compilation (read by the device link). */\n\
         __attribute__((section(\"{SECTION}\"), used, aligned(1)))\n\
         static const unsigned char cucc_ir_record[{}] = {{",
        bytes.len()
    );
    for (i, b) in bytes.iter().enumerate() {
        if i % 24 == 0 {
            c.push_str("\n  ");
        }
        let _ = write!(c, "{b},");
    }
    c.push_str("\n};\n");
    c
}

fn record_bytes(id: &[u8; 16], link_id: &str, text: &str) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(text.len() + link_id.len() + 40);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(id);
    for s in [link_id, text] {
        bytes.extend_from_slice(&(s.len() as u64).to_le_bytes());
        bytes.extend_from_slice(s.as_bytes());
    }
    bytes
}

/// The link id clang gave a host object compiled with `-fgpu-rdc` (its
/// `__nv_module_id` section).
pub fn host_module_id(object: &Path) -> Result<String, String> {
    let data = std::fs::read(object)
        .map_err(|e| format!("cucc: error: cannot read {}: {e}", object.display()))?;
    let name = object.display().to_string();
    let section = elf_section(&data, "__nv_module_id", &name)?.unwrap_or(&[]);
    let n = section
        .iter()
        .position(|&b| b == 0)
        .unwrap_or(section.len());
    let id = String::from_utf8_lossy(&section[..n]).into_owned();
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return Err(format!(
            "cucc: error: {name}: the host compiler left no usable module id for separate compilation"
        ));
    }
    Ok(id)
}

/// C defining `__cudaRegisterLinkedBinary<link_id>` (the id starts `__nv_`), which the host half of
/// a separately compiled unit calls from its constructor: it registers the
/// unit's fat binary (cucc's blob) and lets the host half register its
/// kernels and variables with the handle.
pub fn linked_binary_c(link_id: &str) -> Result<String, String> {
    if link_id.is_empty()
        || !link_id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_')
    {
        return Err(format!(
            "cucc: error: bad separate-compilation module id `{link_id}`"
        ));
    }
    Ok(format!(
        "\n/* Registration entry of a separately compiled unit. */\n\
         void **__cudaRegisterFatBinary(void *);\n\
         void __cudaRegisterFatBinaryEnd(void **);\n\
         void __cudaRegisterLinkedBinary{link_id}(void (*reg)(void **), void *wrapper, void *id, void (*unused)(void *)) {{\n\
         \x20 (void)id; (void)unused;\n\
         \x20 void **handle = __cudaRegisterFatBinary(wrapper);\n\
         \x20 reg(handle);\n\
         \x20 __cudaRegisterFatBinaryEnd(handle);\n\
         }}\n"
    ))
}

/// Every record in an object file or an `ar` archive of objects. Files that
/// are neither (shared libraries are ELF too, and have no such section)
/// yield nothing; a damaged record is an error naming the file.
pub fn read_records(path: &Path) -> Result<Vec<Record>, String> {
    let data = std::fs::read(path)
        .map_err(|e| format!("cucc: error: cannot read {}: {e}", path.display()))?;
    let name = path.display().to_string();
    let mut out = Vec::new();
    if data.starts_with(b"!<arch>\n") {
        for (member, bytes) in archive_members(&data, &name)? {
            let origin = format!("{name}({member})");
            if let Some(section) = elf_section(bytes, SECTION, &origin)? {
                parse_records(section, &origin, &mut out)?;
            }
        }
    } else if let Some(section) = elf_section(&data, SECTION, &name)? {
        parse_records(section, &name, &mut out)?;
    }
    Ok(out)
}

fn parse_records(mut s: &[u8], origin: &str, out: &mut Vec<Record>) -> Result<(), String> {
    let bad = |what: &str| format!("cucc: error: {origin}: damaged device IR record ({what})");
    loop {
        // Alignment padding between concatenated sections is zeros.
        while let [0, rest @ ..] = s {
            s = rest;
        }
        if s.is_empty() {
            return Ok(());
        }
        if s.len() < 24 || &s[..8] != MAGIC {
            return Err(bad("bad magic"));
        }
        let mut id = [0u8; 16];
        id.copy_from_slice(&s[8..24]);
        s = &s[24..];
        let mut strings = Vec::new();
        for _ in 0..2 {
            if s.len() < 8 {
                return Err(bad("truncated"));
            }
            let mut len = [0u8; 8];
            len.copy_from_slice(&s[..8]);
            let len = u64::from_le_bytes(len);
            let body = &s[8..];
            if len > body.len() as u64 {
                return Err(bad("truncated"));
            }
            let (text, rest) = body.split_at(len as usize);
            strings.push(String::from_utf8(text.to_vec()).map_err(|_| bad("not UTF-8"))?);
            s = rest;
        }
        let text = strings.pop().unwrap_or_default();
        let link_id = strings.pop().unwrap_or_default();
        out.push(Record {
            id,
            link_id,
            text,
            origin: origin.to_string(),
        });
    }
}

/// The members of a System V / GNU `ar` archive (symbol and name tables
/// skipped; long names resolved through `//`).
fn archive_members<'a>(data: &'a [u8], name: &str) -> Result<Vec<(String, &'a [u8])>, String> {
    let bad = |what: &str| format!("cucc: error: {name}: damaged archive ({what})");
    let mut pos = 8;
    let mut long_names: &[u8] = &[];
    let mut out = Vec::new();
    while pos < data.len() {
        if data.len() - pos < 60 {
            return Err(bad("truncated member header"));
        }
        let header = &data[pos..pos + 60];
        if &header[58..60] != b"`\n" {
            return Err(bad("bad member header"));
        }
        let size: usize = std::str::from_utf8(&header[48..58])
            .ok()
            .and_then(|t| t.trim().parse().ok())
            .ok_or_else(|| bad("bad member size"))?;
        let start = pos + 60;
        let end = start.checked_add(size).filter(|&e| e <= data.len());
        let Some(end) = end else {
            return Err(bad("member past the end"));
        };
        let body = &data[start..end];
        let raw = String::from_utf8_lossy(&header[..16])
            .trim_end()
            .to_string();
        if raw == "/" || raw == "/SYM64/" {
            // symbol table
        } else if raw == "//" {
            long_names = body;
        } else {
            let member =
                if let Some(off) = raw.strip_prefix('/').and_then(|o| o.parse::<usize>().ok()) {
                    let tail = long_names.get(off..).unwrap_or(&[]);
                    let n = tail.iter().position(|&b| b == b'\n').unwrap_or(tail.len());
                    String::from_utf8_lossy(&tail[..n])
                        .trim_end_matches('/')
                        .to_string()
                } else {
                    raw.trim_end_matches('/').to_string()
                };
            out.push((member, body));
        }
        pos = end + (size & 1);
    }
    Ok(out)
}

/// The contents of section `want` of a little-endian ELF64 object, if it
/// is one and has the section.
fn elf_section<'a>(data: &'a [u8], want: &str, name: &str) -> Result<Option<&'a [u8]>, String> {
    let bad = |e: cucc_elf::Damaged| format!("cucc: error: {name}: {e}");
    match cucc_elf::Elf::parse(data).map_err(bad)? {
        Some(elf) => elf.section(want.as_bytes()).map_err(bad),
        None => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_through_bytes() {
        let mut bytes = record_bytes(&[7u8; 16], "__nv_ab12", "hello");
        let first = bytes.len();
        bytes.extend_from_slice(&[0, 0, 0]);
        bytes.extend_from_slice(&record_bytes(&[1u8; 16], "__nv_cd34", "ok"));
        let mut out = Vec::new();
        parse_records(&bytes, "x.o", &mut out).expect("parses");
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].text, "hello");
        assert_eq!(out[0].link_id, "__nv_ab12");
        assert_eq!(out[1].id, [1u8; 16]);
        // Every truncation is an error, never a panic.
        for cut in 1..bytes.len() {
            let mut v = Vec::new();
            let r = parse_records(&bytes[..cut], "x.o", &mut v);
            let whole_first = (first..=first + 3).contains(&cut) && v.len() == 1;
            assert!(r.is_err() || whole_first, "cut {cut}");
        }
        assert!(linked_binary_c("__nv_ab12").is_ok());
        assert!(linked_binary_c("x); evil(").is_err());
    }

    #[test]
    fn damaged_inputs_are_errors_not_panics() {
        assert!(elf_section(b"not elf", SECTION, "x").expect("ok").is_none());
        let mut elf = vec![0u8; 64];
        elf[..4].copy_from_slice(b"\x7fELF");
        elf[4] = 2;
        elf[5] = 1;
        elf[0x28] = 0xff; // section table far past the end
        elf[0x3A] = 64;
        elf[0x3C] = 3;
        elf[0x3E] = 1;
        assert!(elf_section(&elf, SECTION, "x").is_err());
        let mut ar = b"!<arch>\n".to_vec();
        ar.extend_from_slice(b"x.o/            0           0     0     644     99999     `\n");
        assert!(archive_members(&ar, "lib.a").is_err());
    }
}
