//! Programs linked with NVIDIA's static runtime (nvcc's and CMake's
//! default) carry that runtime inside their own image: the program calls its
//! `cudaMalloc` directly, so neither the dynamic loader nor `LD_PRELOAD` can
//! put cucc's in its place, and NVIDIA's copy only works on NVIDIA's driver
//! (docs/driver-api.md). When this library is loaded into such a program
//! (`cucc run` preloads it), its load-time constructor redirects that
//! runtime's entry points to this library's: every function of the program's
//! static symbol table (`.symtab`) whose name this library exports, the
//! public API and the `__cuda*` registration hooks nvcc's generated code
//! calls, gets at its first byte an absolute jump to this library's
//! definition. Preloaded libraries are initialised before the program's own
//! constructors, which register its fat binaries, so NVIDIA's runtime is
//! never entered. A name this library lacks is left alone: calling it runs
//! NVIDIA's code, which fails with a CUDA error code on cucc's
//! `libcuda.so.1`.
//!
//! Nothing happens for a program that imports its runtime (cucc-built, or
//! nvcc's `-cudart shared`), for a stripped program (no `.symtab`; `cucc
//! run` tells the user), when this runtime is itself part of the main
//! executable (its own tests), or with `CUCC_STATIC_REDIRECT=0`.

use crate::log::{log, Level};
use cucc_elf::{Elf, Segment, Symbol};
use std::ffi::{c_void, CStr, CString};

/// The bytes of `jmp qword ptr [rip + 0]`, followed by the 8-byte target:
/// a jump anywhere in the address space that changes no register.
const JUMP: [u8; 6] = [0xff, 0x25, 0, 0, 0, 0];
/// Bytes a redirected function must have.
pub const PATCH_LEN: usize = JUMP.len() + 8;

/// The program defines NVIDIA's runtime if it defines the hook its fat
/// binaries are registered through.
const MARKER: &[u8] = b"__cudaRegisterFatBinary";

/// One entry point to redirect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Redirect {
    /// Its name.
    pub name: String,
    /// Its address in the image (before the load bias).
    pub at: u64,
    /// Where it jumps: this library's definition.
    pub to: u64,
}

/// The code that replaces the first bytes of a redirected function.
pub fn jump_to(target: u64) -> [u8; PATCH_LEN] {
    let mut code = [0u8; PATCH_LEN];
    code[..JUMP.len()].copy_from_slice(&JUMP);
    code[JUMP.len()..].copy_from_slice(&target.to_le_bytes());
    code
}

/// True if a program with these static symbols carries NVIDIA's runtime.
pub fn has_static_runtime(symbols: &[Symbol]) -> bool {
    symbols
        .iter()
        .any(|s| s.defined && s.function && s.name == MARKER)
}

/// The runtime's candidate entry points among `symbols`: defined functions
/// named `cuda*` or `__cuda*`. nvcc's per-file registration code has
/// mangled (`_Z...`) or `__nv_` names and is not among them.
pub fn candidates<'a>(symbols: &'a [Symbol<'a>]) -> impl Iterator<Item = &'a Symbol<'a>> {
    symbols.iter().filter(|s| {
        s.defined
            && s.function
            && s.value != 0
            && (s.name.starts_with(b"cuda") || s.name.starts_with(b"__cuda"))
    })
}

/// The redirects for `symbols` (the program's whole static symbol table),
/// each to `resolve(name)` (this library's definition, or `None` if it has
/// none). The jump may use a function's alignment padding: its room reaches
/// to the next symbol (NVIDIA's forwarders such as `__cudaLaunchKernel` are
/// 10 bytes padded to 16). A function with less room than the jump is an
/// error if it would be redirected.
pub fn plan(
    symbols: &[Symbol],
    mut resolve: impl FnMut(&str) -> Option<u64>,
) -> Result<Vec<Redirect>, String> {
    let mut starts: Vec<u64> = symbols
        .iter()
        .filter(|s| s.defined && s.value != 0)
        .map(|s| s.value)
        .collect();
    starts.sort_unstable();
    starts.dedup();
    let room = |s: &Symbol| -> u64 {
        let next = starts.partition_point(|&v| v <= s.value);
        let gap = starts.get(next).map_or(0, |&n| n - s.value);
        s.size.max(gap)
    };
    let mut out: Vec<Redirect> = Vec::new();
    for s in candidates(symbols) {
        let name = String::from_utf8_lossy(s.name).into_owned();
        let Some(to) = resolve(&name) else { continue };
        if room(s) < PATCH_LEN as u64 {
            return Err(format!(
                "the program's `{name}` has {} bytes, too few to redirect to cucc's",
                room(s)
            ));
        }
        // A symbol listed twice (a local and a global alias) is patched once.
        if !out.iter().any(|r| r.at == s.value) {
            out.push(Redirect {
                name,
                at: s.value,
                to,
            });
        }
    }
    Ok(out)
}

/// The protection of the segment holding `addr`, as `mprotect` flags.
fn protection(segments: &[Segment], addr: u64) -> Option<i32> {
    let seg = segments
        .iter()
        .find(|g| addr >= g.vaddr && addr - g.vaddr < g.memsz)?;
    let mut prot = 0;
    if seg.flags & 4 != 0 {
        prot |= libc::PROT_READ;
    }
    if seg.flags & 2 != 0 {
        prot |= libc::PROT_WRITE;
    }
    if seg.flags & 1 != 0 {
        prot |= libc::PROT_EXEC;
    }
    Some(prot)
}

/// Writes each redirect's jump at `bias + at`, making the pages writable
/// (not executable) for the moment and restoring their segment's protection.
///
/// # Safety
/// The addresses must be functions of the running program's image, loaded
/// at `bias`, that no thread is executing.
unsafe fn apply(redirects: &[Redirect], segments: &[Segment], bias: u64) -> Result<(), String> {
    let page = match libc::sysconf(libc::_SC_PAGESIZE) {
        n if n > 0 => n as u64,
        _ => 4096,
    };
    for r in redirects {
        let prot = protection(segments, r.at)
            .ok_or_else(|| format!("`{}` is outside the program's segments", r.name))?;
        let start = (bias + r.at) & !(page - 1);
        let end = bias + r.at + PATCH_LEN as u64;
        let len = (end - start).div_ceil(page) * page;
        let base = start as *mut c_void;
        if libc::mprotect(base, len as usize, libc::PROT_READ | libc::PROT_WRITE) != 0 {
            return Err(format!(
                "cannot make `{}` writable: {}",
                r.name,
                std::io::Error::last_os_error()
            ));
        }
        let code = jump_to(r.to);
        std::ptr::copy_nonoverlapping(code.as_ptr(), (bias + r.at) as *mut u8, PATCH_LEN);
        if libc::mprotect(base, len as usize, prot) != 0 {
            return Err(format!(
                "cannot restore the protection of `{}`: {}",
                r.name,
                std::io::Error::last_os_error()
            ));
        }
    }
    Ok(())
}

/// The main program's load bias (the first object the loader lists).
fn main_program_bias() -> u64 {
    unsafe extern "C" fn first(
        info: *mut libc::dl_phdr_info,
        _size: usize,
        data: *mut c_void,
    ) -> i32 {
        // SAFETY: the loader passes a valid entry; `data` is the caller's.
        unsafe { *(data as *mut u64) = (*info).dlpi_addr };
        1
    }
    let mut bias = 0u64;
    // SAFETY: the callback writes one u64 through the pointer it is given.
    unsafe { libc::dl_iterate_phdr(Some(first), &mut bias as *mut u64 as *mut c_void) };
    bias
}

/// The file of the object that holds this function.
fn this_library() -> Option<CString> {
    let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
    // SAFETY: dladdr only reads the address and fills `info`.
    let ok = unsafe { libc::dladdr(redirect_at_load as *const c_void, &mut info) };
    if ok == 0 || info.dli_fname.is_null() {
        return None;
    }
    // SAFETY: dladdr returned a NUL-terminated name owned by the loader.
    Some(unsafe { CStr::from_ptr(info.dli_fname) }.to_owned())
}

/// Reads `/proc/self/exe` (mapped, so only the headers and symbol table are
/// read from disk) and runs `f` on its image.
fn with_program_image<T>(f: impl FnOnce(&[u8]) -> T) -> Result<T, String> {
    use std::os::unix::io::AsRawFd;
    let file = std::fs::File::open("/proc/self/exe").map_err(|e| e.to_string())?;
    let len = file.metadata().map_err(|e| e.to_string())?.len() as usize;
    if len == 0 {
        return Ok(f(&[]));
    }
    // SAFETY: a private read-only mapping of a file we hold open; unmapped
    // below, after `f` is done with the slice.
    let map = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ,
            libc::MAP_PRIVATE,
            file.as_raw_fd(),
            0,
        )
    };
    if map == libc::MAP_FAILED {
        return Err(std::io::Error::last_os_error().to_string());
    }
    // SAFETY: the mapping is `len` readable bytes.
    let out = f(unsafe { std::slice::from_raw_parts(map as *const u8, len) });
    // SAFETY: the mapping made above.
    unsafe { libc::munmap(map, len) };
    Ok(out)
}

/// What the constructor did.
enum Outcome {
    /// Nothing to do (no static runtime, stripped, or this runtime is part
    /// of the main program).
    Nothing,
    /// This many entry points now jump to cucc's runtime.
    Redirected(usize),
}

fn redirect() -> Result<Outcome, String> {
    let bias = main_program_bias();
    let here = redirect_at_load as *const () as u64;
    let mut handle: *mut c_void = std::ptr::null_mut();
    let mut resolve = |name: &str| -> Option<u64> {
        if handle.is_null() {
            let library = this_library()?;
            // SAFETY: dlopen of a library already loaded (RTLD_NOLOAD)
            // only returns a handle to it.
            handle = unsafe { libc::dlopen(library.as_ptr(), libc::RTLD_LAZY | libc::RTLD_NOLOAD) };
        }
        let c = CString::new(name).ok()?;
        // SAFETY: a NUL-terminated name; a null handle is checked first.
        let p = (!handle.is_null()).then(|| unsafe { libc::dlsym(handle, c.as_ptr()) })?;
        (!p.is_null()).then_some(p as u64)
    };
    let found = with_program_image(|image| -> Result<_, String> {
        let Ok(Some(elf)) = Elf::parse(image) else {
            return Ok(None);
        };
        let symbols = elf.static_symbols().map_err(|e| e.to_string())?;
        if !has_static_runtime(&symbols) {
            return Ok(None);
        }
        let segments = elf.segments().map_err(|e| e.to_string())?;
        // This runtime linked into the main program itself (its own
        // tests): the program's definitions are this runtime's.
        if protection(&segments, here.wrapping_sub(bias)).is_some() {
            return Ok(None);
        }
        let redirects = plan(&symbols, &mut resolve)?;
        Ok(Some((redirects, segments)))
    })??;
    let Some((redirects, segments)) = found else {
        return Ok(Outcome::Nothing);
    };
    if redirects.is_empty() {
        return Err("cucc's runtime library defines none of its entry points".into());
    }
    // A jump to a function that is already the program's own would loop.
    if let Some(r) = redirects.iter().find(|r| r.to == bias + r.at) {
        return Err(format!(
            "`{}` resolves to the program's own definition",
            r.name
        ));
    }
    // SAFETY: the addresses are functions of the main program's image at
    // `bias`; constructors run before the program has any other thread.
    unsafe { apply(&redirects, &segments, bias)? };
    Ok(Outcome::Redirected(redirects.len()))
}

/// The load-time constructor: redirects a static NVIDIA runtime in the main
/// program, if there is one. A failure after some functions were patched
/// leaves the program half on each runtime, so it ends the process.
extern "C" fn redirect_at_load() {
    if std::env::var_os("CUCC_STATIC_REDIRECT").is_some_and(|v| v == "0") {
        return;
    }
    match redirect() {
        Ok(Outcome::Nothing) => {}
        Ok(Outcome::Redirected(n)) => log(Level::Debug, || {
            format!("redirected {n} entry points of the program's static NVIDIA runtime to cucc's")
        }),
        Err(e) => {
            eprintln!("cucc: cannot redirect the program's static NVIDIA runtime to cucc's: {e}");
            std::process::exit(1);
        }
    }
}

/// Run by the loader when this library is loaded, before the program's own
/// constructors.
#[used]
#[link_section = ".init_array"]
static REDIRECT_AT_LOAD: extern "C" fn() = redirect_at_load;

#[cfg(test)]
mod tests {
    use super::*;

    fn sym(name: &'static str, value: u64, size: u64) -> Symbol<'static> {
        Symbol {
            name: name.as_bytes(),
            value,
            size,
            function: true,
            defined: true,
        }
    }

    #[test]
    fn the_jump_is_an_absolute_indirect_jmp() {
        let code = jump_to(0x1122_3344_5566_7788);
        assert_eq!(
            code,
            [0xff, 0x25, 0, 0, 0, 0, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11]
        );
    }

    #[test]
    fn only_defined_runtime_functions_are_redirected() {
        let mut undefined = sym("cudaFree", 0, 0);
        undefined.defined = false;
        let mut data = sym("cudaData", 0x900, 64);
        data.function = false;
        let symbols = [
            sym("__cudaRegisterFatBinary", 0x100, 48),
            sym("cudaMalloc", 0x200, 96),
            sym("cudaMalloc", 0x200, 96),    // a second alias
            sym("cudaCheckMine", 0x300, 40), // the program's own helper
            sym("_ZL24__sti____cudaRegisterAllv", 0x400, 40),
            sym("main", 0x500, 40),
            undefined,
            data,
        ];
        assert!(has_static_runtime(&symbols));
        let ours = |n: &str| match n {
            "__cudaRegisterFatBinary" => Some(0xa000),
            "cudaMalloc" => Some(0xb000),
            _ => None,
        };
        let plan = plan(&symbols, ours).expect("fits");
        assert_eq!(
            plan,
            vec![
                Redirect {
                    name: "__cudaRegisterFatBinary".into(),
                    at: 0x100,
                    to: 0xa000
                },
                Redirect {
                    name: "cudaMalloc".into(),
                    at: 0x200,
                    to: 0xb000
                },
            ]
        );
        assert!(!has_static_runtime(&symbols[1..]));
    }

    #[test]
    fn a_function_too_small_for_the_jump_is_an_error() {
        let symbols = [sym("cudaGetLastError", 0x100, 8), sym("next", 0x10c, 4)];
        let e = plan(&symbols, |_| Some(0x1000)).unwrap_err();
        assert!(
            e.contains("cudaGetLastError") && e.contains("12 bytes"),
            "{e}"
        );
        // Not redirected, so not checked.
        assert!(plan(&symbols, |_| None).expect("nothing").is_empty());
        // Padding up to the next symbol is room too.
        let padded = [sym("__cudaLaunchKernel", 0x100, 10), sym("next", 0x110, 4)];
        assert_eq!(plan(&padded, |_| Some(0x1000)).expect("fits").len(), 1);
    }

    #[test]
    fn a_redirected_function_jumps_to_the_target() {
        // A page of our own with a function that returns 1, redirected to
        // one that returns 2.
        extern "C" fn two() -> i32 {
            2
        }
        // SAFETY: a fresh anonymous mapping, written then made executable.
        unsafe {
            let page = libc::mmap(
                std::ptr::null_mut(),
                4096,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            );
            assert_ne!(page, libc::MAP_FAILED);
            // mov eax, 1; ret; padded to the patch length.
            let one = [0xb8u8, 1, 0, 0, 0, 0xc3];
            std::ptr::copy_nonoverlapping(one.as_ptr(), page as *mut u8, one.len());
            assert_eq!(
                libc::mprotect(page, 4096, libc::PROT_READ | libc::PROT_EXEC),
                0
            );
            let f: extern "C" fn() -> i32 = std::mem::transmute(page);
            assert_eq!(f(), 1);
            let segments = [Segment {
                vaddr: 0,
                memsz: 4096,
                flags: 5,
            }];
            let r = Redirect {
                name: "f".into(),
                at: 0,
                to: two as *const () as u64,
            };
            apply(&[r], &segments, page as u64).expect("patched");
            assert_eq!(f(), 2);
            libc::munmap(page, 4096);
        }
    }
}
