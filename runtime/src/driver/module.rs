//! Modules, libraries, functions and launches.
//!
//! A module is loaded from PTX text or a fat binary (in memory or a file):
//! its PTX goes through the same JIT as the PTX of nvcc-built programs
//! (`docs/jit.md`) and becomes a registered cucc module. A `CUfunction` is
//! an address registered in the runtime's kernel table, so a launch is
//! `cudaLaunchKernel` on it. A library (`CUlibrary`) is a module, and a
//! `CUkernel` is its `CUfunction` (CUDA lets either be launched).

use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_uint, c_void, CStr, CString};
use std::sync::{Arc, Mutex};

use super::context::need_context;
use super::result::{
    FILE_NOT_FOUND, INVALID_HANDLE, INVALID_IMAGE, INVALID_PTX, INVALID_VALUE, NOT_FOUND,
    NO_BINARY_FOR_GPU,
};
use super::{drv, drv_ctx, out, rt, CUresult, DrvResult};
use crate::fatbin::{self, EntryKind};
use crate::ffi::{cudaFuncAttributes, cudaStream_t, Dim3};
use crate::jit::{self, memread, JitError};
use crate::log::{log, Level};
use crate::registry::driver_hooks as hooks;
use crate::registry::ModuleId;
use crate::sync::lock;

/// A loaded module.
struct Module {
    /// The JIT modules holding its kernels and variables (one per PTX).
    ids: Vec<ModuleId>,
    /// Function handles handed out, by kernel name.
    functions: Mutex<HashMap<String, usize>>,
}

/// A function handle's target.
struct Function {
    module: usize,
    id: ModuleId,
    name: CString,
}

#[derive(Default)]
struct Tables {
    modules: HashMap<usize, Arc<Module>>,
    functions: HashMap<usize, Arc<Function>>,
}

static TABLES: Mutex<Option<Tables>> = Mutex::new(None);

fn with<T>(f: impl FnOnce(&mut Tables) -> T) -> T {
    f(lock(&TABLES).get_or_insert_with(Tables::default))
}

fn module(h: *mut c_void) -> DrvResult<Arc<Module>> {
    with(|t| t.modules.get(&(h as usize)).cloned()).ok_or(INVALID_HANDLE)
}

fn function(h: *mut c_void) -> DrvResult<Arc<Function>> {
    with(|t| t.functions.get(&(h as usize)).cloned()).ok_or(INVALID_HANDLE)
}

/// A fresh address to serve as a handle (never dereferenced), freed by
/// [`free_handle`].
fn new_handle() -> usize {
    Box::into_raw(Box::new(0u64)) as usize
}

fn free_handle(h: usize) {
    // SAFETY: made by `new_handle` and removed from its table by the caller,
    // so freed once.
    drop(unsafe { Box::from_raw(h as *mut u64) });
}

/// The magic of a fat binary wrapper (`__fatBinC_Wrapper_t`).
const WRAPPER_MAGIC: u32 = 0x466243b1;

/// The JIT's error as a driver code, reported on stderr.
fn jit_error(e: JitError) -> CUresult {
    log(Level::Error, || e.to_string());
    match e {
        JitError::Image { .. } => INVALID_IMAGE,
        JitError::NoPtx(_) => NO_BINARY_FOR_GPU,
        JitError::Translate(_) | JitError::Build(_) | JitError::Link(_) => INVALID_PTX,
    }
}

/// Compiles PTX text (NUL padding removed).
fn load_ptx(bytes: &[u8]) -> DrvResult<Vec<ModuleId>> {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    let text = std::str::from_utf8(&bytes[..end]).map_err(|_| {
        log(Level::Error, || {
            "module image: PTX text that is not UTF-8".into()
        });
        INVALID_IMAGE
    })?;
    if text.trim().is_empty() {
        log(Level::Error, || "module image: empty PTX text".into());
        return Err(INVALID_IMAGE);
    }
    let id = std::panic::catch_unwind(|| jit::load_ptx(text))
        .map_err(|_| INVALID_PTX)?
        .map_err(jit_error)?;
    Ok(vec![id])
}

/// Loads the PTX of a whole fat binary.
fn load_fatbin(bytes: &[u8]) -> DrvResult<Vec<ModuleId>> {
    let fb = fatbin::parse(bytes).map_err(|err| jit_error(JitError::Image { addr: 0, err }))?;
    let Some(entry) = fatbin::best_ptx(&fb) else {
        let archs: Vec<String> = fb
            .entries
            .iter()
            .filter(|e| e.kind == EntryKind::Elf)
            .map(|e| format!("sm_{}", e.arch))
            .collect();
        return Err(jit_error(JitError::NoPtx(format!(
            "the fat binary has no PTX, only GPU code ({}); cucc runs kernels from PTX: build it with PTX (nvcc -fatbin -arch=compute_XX, or -gencode arch=compute_XX,code=compute_XX)",
            archs.join(", ")
        ))));
    };
    let text = entry
        .ptx_text()
        .map_err(|err| jit_error(JitError::Image { addr: 0, err }))?;
    load_ptx(text.as_bytes())
}

/// What an image's first bytes say it is.
enum Kind {
    Fatbin,
    Wrapper,
    Elf,
    Text,
}

fn kind_of(head: &[u8]) -> Kind {
    let word = |o: usize| {
        head.get(o..o + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    if word(0) == Some(fatbin::FATBIN_MAGIC) {
        Kind::Fatbin
    } else if word(0) == Some(WRAPPER_MAGIC) {
        Kind::Wrapper
    } else if head.starts_with(b"\x7fELF") {
        Kind::Elf
    } else {
        Kind::Text
    }
}

fn cubin() -> CUresult {
    log(Level::Error, || {
        "module image: a cubin (GPU machine code) cannot run on the CPU; load PTX or a fat binary that holds PTX".into()
    });
    NO_BINARY_FOR_GPU
}

/// Loads a file's contents (`cuModuleLoad`, `cuLibraryLoadFromFile`).
fn load_bytes(bytes: &[u8]) -> DrvResult<Vec<ModuleId>> {
    match kind_of(bytes) {
        Kind::Fatbin => load_fatbin(bytes),
        Kind::Elf => Err(cubin()),
        Kind::Wrapper => Err(INVALID_IMAGE),
        Kind::Text => load_ptx(bytes),
    }
}

/// Reads the fat binary at `addr` out of memory, bounded by its header.
fn read_fatbin(addr: usize) -> DrvResult<Vec<u8>> {
    let corrupt = || {
        log(Level::Error, || {
            format!("module image at {addr:#x}: unreadable or corrupt fat binary")
        });
        INVALID_IMAGE
    };
    // SAFETY: memread checks that the range is readable where it can.
    let head = unsafe { memread::read(addr, 16) }.ok_or_else(corrupt)?;
    let total = fatbin::total_len(&head).map_err(|_| corrupt())?;
    // SAFETY: as above; the length comes from the header.
    unsafe { memread::read(addr, total) }.ok_or_else(corrupt)
}

/// Loads an image in memory: PTX text, a fat binary or its wrapper.
///
/// # Safety
/// `image` must point to the image (a NUL-terminated string for PTX).
unsafe fn load_image(image: *const c_void) -> DrvResult<Vec<ModuleId>> {
    if image.is_null() {
        return Err(INVALID_VALUE);
    }
    let addr = image as usize;
    // SAFETY: memread checks readability; an image has at least 4 bytes
    // (PTX shorter than that ends in its NUL, read below as a string).
    let head = unsafe { memread::read(addr, 4) }.unwrap_or_default();
    match kind_of(&head) {
        Kind::Fatbin => load_fatbin(&read_fatbin(addr)?),
        Kind::Wrapper => {
            // SAFETY: memread checks readability.
            let data = unsafe { memread::read_usize(addr + 8) }.ok_or(INVALID_IMAGE)?;
            if data == 0 {
                return Err(INVALID_IMAGE);
            }
            load_fatbin(&read_fatbin(data)?)
        }
        Kind::Elf => Err(cubin()),
        Kind::Text => {
            // SAFETY: the caller's contract: NUL-terminated PTX text.
            let text = unsafe { CStr::from_ptr(image as *const c_char) };
            load_ptx(text.to_bytes())
        }
    }
}

/// Records a loaded module and writes its handle.
fn publish(ids: Vec<ModuleId>, pmod: *mut *mut c_void) -> DrvResult {
    let h = new_handle();
    let m = Arc::new(Module {
        ids,
        functions: Mutex::new(HashMap::new()),
    });
    with(|t| t.modules.insert(h, m));
    // SAFETY: checked non-null by the callers.
    unsafe { pmod.write(h as *mut c_void) };
    Ok(())
}

unsafe extern "C" fn cuModuleLoadData(pmod: *mut *mut c_void, image: *const c_void) -> CUresult {
    drv_ctx(|| {
        if pmod.is_null() {
            return Err(INVALID_VALUE);
        }
        // SAFETY: the caller's image.
        let ids = unsafe { load_image(image) }?;
        publish(ids, pmod)
    })
}

/// `cuModuleLoadDataEx`: JIT options are accepted and ignored (the PTX is
/// compiled for the CPU with cucc's own settings).
unsafe extern "C" fn cuModuleLoadDataEx(
    pmod: *mut *mut c_void,
    image: *const c_void,
    _n: c_uint,
    _options: *mut c_int,
    _values: *mut *mut c_void,
) -> CUresult {
    // SAFETY: forwarded contract.
    unsafe { cuModuleLoadData(pmod, image) }
}

/// Reads a module file.
///
/// # Safety
/// `name` must be NULL or a NUL-terminated path.
unsafe fn read_file(name: *const c_char) -> DrvResult<Vec<u8>> {
    if name.is_null() {
        return Err(INVALID_VALUE);
    }
    // SAFETY: the caller's path.
    let path = unsafe { CStr::from_ptr(name) }
        .to_string_lossy()
        .into_owned();
    std::fs::read(&path).map_err(|e| {
        log(Level::Error, || {
            format!("cannot read module file {path}: {e}")
        });
        FILE_NOT_FOUND
    })
}

unsafe extern "C" fn cuModuleLoad(pmod: *mut *mut c_void, name: *const c_char) -> CUresult {
    drv_ctx(|| {
        if pmod.is_null() {
            return Err(INVALID_VALUE);
        }
        // SAFETY: the caller's path.
        let bytes = unsafe { read_file(name) }?;
        publish(load_bytes(&bytes)?, pmod)
    })
}

fn unload(h: usize) -> DrvResult {
    let m = with(|t| t.modules.remove(&h)).ok_or(INVALID_HANDLE)?;
    let handles: Vec<usize> = lock(&m.functions).values().copied().collect();
    with(|t| {
        for f in &handles {
            t.functions.remove(f);
        }
    });
    for f in handles {
        hooks::unregister_handle(f);
        free_handle(f);
    }
    free_handle(h);
    Ok(())
}

unsafe extern "C" fn cuModuleUnload(hmod: *mut c_void) -> CUresult {
    drv(|| unload(hmod as usize))
}

/// The handle of kernel `name` of module `h`, made at the first request.
///
/// # Safety
/// `name` must be NULL or a NUL-terminated string.
unsafe fn get_function(h: *mut c_void, name: *const c_char) -> DrvResult<usize> {
    let m = module(h)?;
    if name.is_null() {
        return Err(INVALID_VALUE);
    }
    // SAFETY: the caller's string.
    let cname = unsafe { CStr::from_ptr(name) };
    let name = cname.to_str().map_err(|_| NOT_FOUND)?;
    let mut functions = lock(&m.functions);
    if let Some(&f) = functions.get(name) {
        return Ok(f);
    }
    let id = *m
        .ids
        .iter()
        .find(|id| hooks::module_kernel(id, name).is_some())
        .ok_or(NOT_FOUND)?;
    let f = new_handle();
    hooks::register_handle(f, id, name);
    with(|t| {
        t.functions.insert(
            f,
            Arc::new(Function {
                module: h as *const () as usize,
                id,
                name: cname.to_owned(),
            }),
        )
    });
    functions.insert(name.to_string(), f);
    Ok(f)
}

unsafe extern "C" fn cuModuleGetFunction(
    pf: *mut *mut c_void,
    hmod: *mut c_void,
    name: *const c_char,
) -> CUresult {
    drv(|| {
        if pf.is_null() {
            return Err(INVALID_VALUE);
        }
        // SAFETY: the caller's string.
        let f = unsafe { get_function(hmod, name) }?;
        // SAFETY: checked non-null.
        unsafe { pf.write(f as *mut c_void) };
        Ok(())
    })
}

/// # Safety
/// `name` must be NULL or a NUL-terminated string; the out-pointers NULL
/// or valid.
unsafe fn get_global(
    dptr: *mut u64,
    bytes: *mut usize,
    h: *mut c_void,
    name: *const c_char,
) -> DrvResult {
    let m = module(h)?;
    if name.is_null() {
        return Err(INVALID_VALUE);
    }
    // SAFETY: the caller's string.
    let name = unsafe { CStr::from_ptr(name) }
        .to_str()
        .map_err(|_| NOT_FOUND)?;
    let (addr, size) = m
        .ids
        .iter()
        .find_map(|id| hooks::module_var(id, name))
        .ok_or(NOT_FOUND)?;
    // SAFETY: the caller's optional out-pointers.
    unsafe {
        if !dptr.is_null() {
            dptr.write(addr as u64);
        }
        if !bytes.is_null() {
            bytes.write(size);
        }
    }
    Ok(())
}

unsafe extern "C" fn cuModuleGetGlobal_v2(
    dptr: *mut u64,
    bytes: *mut usize,
    hmod: *mut c_void,
    name: *const c_char,
) -> CUresult {
    // SAFETY: the caller's pointers.
    drv(|| unsafe { get_global(dptr, bytes, hmod, name) })
}

unsafe extern "C" fn cuModuleGetFunctionCount(count: *mut c_uint, hmod: *mut c_void) -> CUresult {
    drv(|| {
        let m = module(hmod)?;
        let n: usize = m.ids.iter().map(|id| hooks::module_kernels(id).len()).sum();
        // SAFETY: the caller's out-pointer.
        unsafe { out(count, n as c_uint) }
    })
}

unsafe extern "C" fn cuModuleGetLoadingMode(mode: *mut c_int) -> CUresult {
    // CU_MODULE_EAGER_LOADING: a module is compiled when it is loaded.
    // SAFETY: the caller's out-pointer.
    drv(|| unsafe { out(mode, 1) })
}

unsafe extern "C" fn cuLibraryLoadData(
    lib: *mut *mut c_void,
    code: *const c_void,
    _jit_options: *mut c_int,
    _jit_values: *mut *mut c_void,
    _n_jit: c_uint,
    _lib_options: *mut c_int,
    _lib_values: *mut *mut c_void,
    _n_lib: c_uint,
) -> CUresult {
    drv(|| {
        if lib.is_null() {
            return Err(INVALID_VALUE);
        }
        // SAFETY: the caller's image.
        let ids = unsafe { load_image(code) }?;
        publish(ids, lib)
    })
}

unsafe extern "C" fn cuLibraryLoadFromFile(
    lib: *mut *mut c_void,
    name: *const c_char,
    _jit_options: *mut c_int,
    _jit_values: *mut *mut c_void,
    _n_jit: c_uint,
    _lib_options: *mut c_int,
    _lib_values: *mut *mut c_void,
    _n_lib: c_uint,
) -> CUresult {
    drv(|| {
        if lib.is_null() {
            return Err(INVALID_VALUE);
        }
        // SAFETY: the caller's path.
        let bytes = unsafe { read_file(name) }?;
        publish(load_bytes(&bytes)?, lib)
    })
}

unsafe extern "C" fn cuLibraryGetModule(pmod: *mut *mut c_void, lib: *mut c_void) -> CUresult {
    drv(|| {
        module(lib)?;
        // SAFETY: the caller's out-pointer.
        unsafe { out(pmod, lib) }
    })
}

unsafe extern "C" fn cuKernelGetFunction(pf: *mut *mut c_void, kernel: *mut c_void) -> CUresult {
    drv(|| {
        function(kernel)?;
        // SAFETY: the caller's out-pointer.
        unsafe { out(pf, kernel) }
    })
}

unsafe extern "C" fn cuKernelGetName(name: *mut *const c_char, kernel: *mut c_void) -> CUresult {
    drv(|| {
        let f = function(kernel)?;
        // The name lives as long as the function handle, as CUDA's does.
        // SAFETY: the caller's out-pointer.
        unsafe { out(name, f.name.as_ptr()) }
    })
}

unsafe extern "C" fn cuFuncGetModule(pmod: *mut *mut c_void, f: *mut c_void) -> CUresult {
    drv(|| {
        let f = function(f)?;
        // SAFETY: the caller's out-pointer.
        unsafe { out(pmod, f.module as *mut c_void) }
    })
}

/// Parameter buffer keys of `cuLaunchKernel`'s `extra`.
const PARAM_END: usize = 0;
const PARAM_BUFFER_POINTER: usize = 1;
const PARAM_BUFFER_SIZE: usize = 2;
/// Most key/value pairs read from `extra`.
const MAX_EXTRA: usize = 64;

/// Pointers to each parameter in a packed `extra` buffer. A parameter's
/// alignment is taken to be its size's largest power-of-two divisor, up to
/// 16 (scalars, vectors and pointers; a struct whose alignment is smaller
/// than that must be padded as such by the caller).
///
/// # Safety
/// `extra` must be a `CU_LAUNCH_PARAM_END`-terminated key/value array.
unsafe fn params_from_extra(extra: *mut *mut c_void, sizes: &[u32]) -> DrvResult<Vec<*mut c_void>> {
    let (mut buf, mut size) = (std::ptr::null_mut::<u8>(), None::<usize>);
    let mut i = 0;
    loop {
        if i >= 2 * MAX_EXTRA {
            return Err(INVALID_VALUE);
        }
        // SAFETY: the caller's array, read up to its END key.
        let key = unsafe { extra.add(i).read() } as usize;
        if key == PARAM_END {
            break;
        }
        // SAFETY: each key but END has a value after it.
        let value = unsafe { extra.add(i + 1).read() };
        match key {
            PARAM_BUFFER_POINTER => buf = value as *mut u8,
            PARAM_BUFFER_SIZE if !value.is_null() => {
                // SAFETY: the value of BUFFER_SIZE points to a size_t.
                size = Some(unsafe { (value as *const usize).read() })
            }
            _ => return Err(INVALID_VALUE),
        }
        i += 2;
    }
    let size = size.ok_or(INVALID_VALUE)?;
    if buf.is_null() && !sizes.is_empty() {
        return Err(INVALID_VALUE);
    }
    let mut args = Vec::with_capacity(sizes.len());
    let mut offset = 0usize;
    for &s in sizes {
        let s = s as usize;
        let align = (1usize << s.trailing_zeros().min(4)).max(1);
        offset = offset.next_multiple_of(align);
        if offset + s > size {
            return Err(INVALID_VALUE);
        }
        // SAFETY: inside the caller's buffer of `size` bytes.
        args.push(unsafe { buf.add(offset) } as *mut c_void);
        offset += s;
    }
    Ok(args)
}

/// A launch of function handle `f`.
///
/// # Safety
/// `params` (one pointer per parameter) or `extra` as CUDA requires.
#[allow(clippy::too_many_arguments)]
unsafe fn launch(
    f: *mut c_void,
    grid: Dim3,
    block: Dim3,
    shared: c_uint,
    stream: cudaStream_t,
    params: *mut *mut c_void,
    extra: *mut *mut c_void,
    per_thread: bool,
) -> DrvResult {
    let func = function(f)?;
    need_context()?;
    let kernel =
        hooks::module_kernel(&func.id, func.name.to_str().unwrap_or("")).ok_or(INVALID_HANDLE)?;
    let mut storage = Vec::new();
    let args = if !params.is_null() {
        if !extra.is_null() {
            return Err(INVALID_VALUE);
        }
        params
    } else if !extra.is_null() {
        // SAFETY: the caller's `extra` array.
        storage = unsafe { params_from_extra(extra, &kernel.param_sizes) }?;
        storage.as_mut_ptr()
    } else if kernel.param_sizes.is_empty() {
        storage.as_mut_ptr()
    } else {
        return Err(INVALID_VALUE);
    };
    let shared = shared as usize;
    // SAFETY: `args` holds one pointer per parameter (the caller's contract,
    // or built above inside the caller's buffer).
    rt(unsafe {
        if per_thread {
            crate::launch::cudaLaunchKernel_ptsz(f, grid, block, args, shared, stream)
        } else {
            crate::launch::cudaLaunchKernel(f, grid, block, args, shared, stream)
        }
    })
}

fn dim(x: c_uint, y: c_uint, z: c_uint) -> Dim3 {
    Dim3 { x, y, z }
}

macro_rules! launch_kernel {
    ($name:ident, $pt:expr) => {
        #[allow(clippy::too_many_arguments)]
        unsafe extern "C" fn $name(
            f: *mut c_void,
            gx: c_uint,
            gy: c_uint,
            gz: c_uint,
            bx: c_uint,
            by: c_uint,
            bz: c_uint,
            shared: c_uint,
            stream: cudaStream_t,
            params: *mut *mut c_void,
            extra: *mut *mut c_void,
        ) -> CUresult {
            drv(|| {
                // SAFETY: the caller's arguments (CUDA's contract).
                unsafe {
                    launch(
                        f,
                        dim(gx, gy, gz),
                        dim(bx, by, bz),
                        shared,
                        stream,
                        params,
                        extra,
                        $pt,
                    )
                }
            })
        }
    };
}

launch_kernel!(cuLaunchKernel, false);
launch_kernel!(cuLaunchKernel_ptsz, true);
// A cooperative launch runs as an ordinary one, as the runtime's does:
// every block of the grid runs to completion (grid-wide synchronisation
// is not offered by cucc's device code).
launch_kernel!(cuLaunchCooperativeKernel, false);
launch_kernel!(cuLaunchCooperativeKernel_ptsz, true);

/// `CUlaunchConfig`.
#[repr(C)]
pub struct CUlaunchConfig {
    grid: [c_uint; 3],
    block: [c_uint; 3],
    shared: c_uint,
    stream: cudaStream_t,
    attrs: *mut c_void,
    num_attrs: c_uint,
}

/// `cuLaunchKernelEx`: the configuration's attributes (clusters,
/// cooperative launch, priorities...) are accepted and ignored: the CPU
/// runs every block of the grid to completion either way.
///
/// # Safety
/// `config` must be NULL or valid; `params`/`extra` as for `cuLaunchKernel`.
unsafe fn launch_ex(
    config: *const CUlaunchConfig,
    f: *mut c_void,
    params: *mut *mut c_void,
    extra: *mut *mut c_void,
    per_thread: bool,
) -> DrvResult {
    if config.is_null() {
        return Err(INVALID_VALUE);
    }
    // SAFETY: checked non-null; the caller's struct.
    let c = unsafe { &*config };
    let (g, b) = (c.grid, c.block);
    // SAFETY: forwarded contract.
    unsafe {
        launch(
            f,
            dim(g[0], g[1], g[2]),
            dim(b[0], b[1], b[2]),
            c.shared,
            c.stream,
            params,
            extra,
            per_thread,
        )
    }
}

unsafe extern "C" fn cuLaunchKernelEx(
    config: *const CUlaunchConfig,
    f: *mut c_void,
    params: *mut *mut c_void,
    extra: *mut *mut c_void,
) -> CUresult {
    // SAFETY: forwarded contract.
    drv(|| unsafe { launch_ex(config, f, params, extra, false) })
}

unsafe extern "C" fn cuLaunchKernelEx_ptsz(
    config: *const CUlaunchConfig,
    f: *mut c_void,
    params: *mut *mut c_void,
    extra: *mut *mut c_void,
) -> CUresult {
    // SAFETY: forwarded contract.
    drv(|| unsafe { launch_ex(config, f, params, extra, true) })
}

/// One `CUfunction_attribute` of function handle `f`.
fn func_attribute(attr: c_int, f: *mut c_void) -> DrvResult<c_int> {
    function(f)?;
    let mut a: cudaFuncAttributes = unsafe_zeroed();
    // SAFETY: a local out-value; `f` is registered.
    rt(unsafe { crate::launch::cudaFuncGetAttributes(&mut a, f) })?;
    let int = |v: usize| c_int::try_from(v).unwrap_or(c_int::MAX);
    Ok(match attr {
        0 => a.maxThreadsPerBlock,
        1 => int(a.sharedSizeBytes),
        2 => int(a.constSizeBytes),
        3 => int(a.localSizeBytes),
        4 => a.numRegs,
        5 => a.ptxVersion,
        6 => a.binaryVersion,
        7 => a.cacheModeCA,
        8 => a.maxDynamicSharedSizeBytes,
        9 => a.preferredShmemCarveout,
        10..=17 => 0,
        _ => return Err(INVALID_VALUE),
    })
}

/// A zeroed `cudaFuncAttributes` (plain integers).
fn unsafe_zeroed() -> cudaFuncAttributes {
    // SAFETY: the struct is integers only, for which zero is valid.
    unsafe { std::mem::zeroed() }
}

unsafe extern "C" fn cuFuncGetAttribute(pi: *mut c_int, attr: c_int, f: *mut c_void) -> CUresult {
    drv(|| {
        let v = func_attribute(attr, f)?;
        // SAFETY: the caller's out-pointer.
        unsafe { out(pi, v) }
    })
}

unsafe extern "C" fn cuKernelGetAttribute(
    pi: *mut c_int,
    attr: c_int,
    k: *mut c_void,
    dev: c_int,
) -> CUresult {
    drv(|| {
        if dev != 0 {
            return Err(super::result::INVALID_DEVICE);
        }
        let v = func_attribute(attr, k)?;
        // SAFETY: the caller's out-pointer.
        unsafe { out(pi, v) }
    })
}

unsafe extern "C" fn cuFuncSetAttribute(f: *mut c_void, attr: c_int, value: c_int) -> CUresult {
    drv(|| {
        function(f)?;
        // `CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES` (8) and the
        // carveout (9) are `cudaFuncAttribute`'s values.
        rt(crate::launch::cudaFuncSetAttribute(f, attr, value))
    })
}

unsafe extern "C" fn cuFuncSetCacheConfig(f: *mut c_void, _config: c_int) -> CUresult {
    drv(|| function(f).map(|_| ()))
}

unsafe extern "C" fn cuFuncGetName(name: *mut *const c_char, f: *mut c_void) -> CUresult {
    // SAFETY: forwarded contract.
    unsafe { cuKernelGetName(name, f) }
}

unsafe extern "C" fn cuOccupancyMaxActiveBlocksPerMultiprocessor(
    n: *mut c_int,
    f: *mut c_void,
    block: c_int,
    dynamic: usize,
) -> CUresult {
    drv(|| {
        function(f)?;
        if n.is_null() {
            return Err(INVALID_VALUE);
        }
        // SAFETY: checked non-null; `f` is registered.
        rt(unsafe {
            crate::launch::cudaOccupancyMaxActiveBlocksPerMultiprocessor(n, f, block, dynamic)
        })
    })
}

unsafe extern "C" fn cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    n: *mut c_int,
    f: *mut c_void,
    block: c_int,
    dynamic: usize,
    _flags: c_uint,
) -> CUresult {
    // SAFETY: forwarded contract.
    unsafe { cuOccupancyMaxActiveBlocksPerMultiprocessor(n, f, block, dynamic) }
}

/// `cuOccupancyMaxPotentialBlockSize`: the largest block the kernel and
/// `limit` allow (a CPU core runs a block at a time, so fewer, larger
/// blocks cost least), and one block per core as the minimum grid.
unsafe extern "C" fn cuOccupancyMaxPotentialBlockSize(
    min_grid: *mut c_int,
    block: *mut c_int,
    f: *mut c_void,
    dynamic_for: Option<unsafe extern "C" fn(c_int) -> usize>,
    dynamic: usize,
    limit: c_int,
) -> CUresult {
    drv(|| {
        let max = func_attribute(0, f)?;
        if min_grid.is_null() || block.is_null() {
            return Err(INVALID_VALUE);
        }
        let b = if limit > 0 { max.min(limit) } else { max };
        let shared = match dynamic_for {
            // SAFETY: the program's callback, called as CUDA does.
            Some(cb) => unsafe { cb(b) },
            None => dynamic,
        };
        let limit_shared = func_attribute(8, f)?;
        if shared > limit_shared.max(0) as usize {
            return Err(INVALID_VALUE);
        }
        let cores = crate::device::properties().multiProcessorCount.max(1);
        // SAFETY: checked non-null.
        unsafe {
            min_grid.write(cores);
            block.write(b);
        }
        Ok(())
    })
}

unsafe extern "C" fn cuOccupancyMaxPotentialBlockSizeWithFlags(
    min_grid: *mut c_int,
    block: *mut c_int,
    f: *mut c_void,
    dynamic_for: Option<unsafe extern "C" fn(c_int) -> usize>,
    dynamic: usize,
    limit: c_int,
    _flags: c_uint,
) -> CUresult {
    // SAFETY: forwarded contract.
    unsafe { cuOccupancyMaxPotentialBlockSize(min_grid, block, f, dynamic_for, dynamic, limit) }
}

/// Writes up to `n` function handles of module `h`, by kernel name.
unsafe extern "C" fn cuModuleEnumerateFunctions(
    fs: *mut *mut c_void,
    n: c_uint,
    h: *mut c_void,
) -> CUresult {
    drv(|| {
        let m = module(h)?;
        if fs.is_null() && n > 0 {
            return Err(INVALID_VALUE);
        }
        let mut names: Vec<String> = m.ids.iter().flat_map(hooks::module_kernels).collect();
        names.sort();
        for (i, name) in names.iter().take(n as usize).enumerate() {
            let c = CString::new(name.as_str()).map_err(|_| INVALID_VALUE)?;
            // SAFETY: a NUL-terminated name.
            let f = unsafe { get_function(h, c.as_ptr()) }?;
            // SAFETY: the caller promises room for `n` handles.
            unsafe { fs.add(i).write(f as *mut c_void) };
        }
        Ok(())
    })
}

unsafe extern "C" fn cuFuncSetSharedMemConfig(f: *mut c_void, _config: c_int) -> CUresult {
    drv(|| function(f).map(|_| ()))
}

/// This module's entry points by NVIDIA's symbol names.
pub fn entries() -> Vec<(&'static str, usize)> {
    entries![
        cuModuleLoad,
        cuModuleLoadData,
        cuModuleLoadDataEx,
        "cuModuleLoadFatBinary" => cuModuleLoadData,
        cuModuleUnload,
        cuModuleGetFunction,
        cuModuleGetGlobal_v2,
        cuModuleGetFunctionCount,
        cuModuleGetLoadingMode,
        cuLibraryLoadData,
        cuLibraryLoadFromFile,
        "cuLibraryUnload" => cuModuleUnload,
        cuLibraryGetModule,
        "cuLibraryGetKernel" => cuModuleGetFunction,
        "cuLibraryGetGlobal" => cuModuleGetGlobal_v2,
        "cuLibraryGetKernelCount" => cuModuleGetFunctionCount,
        cuKernelGetFunction,
        cuKernelGetName,
        cuKernelGetAttribute,
        cuFuncGetModule,
        cuFuncGetName,
        cuFuncGetAttribute,
        cuFuncSetAttribute,
        cuFuncSetCacheConfig,
        cuLaunchKernel,
        cuLaunchCooperativeKernel,
        cuLaunchCooperativeKernel_ptsz,
        cuOccupancyMaxPotentialBlockSize,
        cuOccupancyMaxPotentialBlockSizeWithFlags,
        cuModuleEnumerateFunctions,
        "cuLibraryEnumerateKernels" => cuModuleEnumerateFunctions,
        cuFuncSetSharedMemConfig,
        cuLaunchKernel_ptsz,
        cuLaunchKernelEx,
        cuLaunchKernelEx_ptsz,
        cuOccupancyMaxActiveBlocksPerMultiprocessor,
        cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags,
    ]
}
