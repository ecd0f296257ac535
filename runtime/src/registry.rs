//! The kernel and variable registry: the meeting point of the host protocol
//! (`__cudaRegisterFatBinary`, `__cudaRegisterFunction`, `__cudaRegisterVar`)
//! and cucc device objects (`__cucc_register_module`,
//! `__cucc_register_variables`).
//!
//! The host side names a kernel by its stub's address and its device (mangled)
//! name, and names the module by the fat binary it registers; a cucc fat binary
//! is a small blob carrying the module's 16-byte id. The device side registers
//! implementations under the same id. The two may arrive in any order (they are
//! both load-time constructors), so kernels and variables are bound lazily, at
//! first use, and the binding is cached once it succeeds.
//!
//! Blob layout (`docs/abi.md`): bytes 0..8 `"CUCCMOD1"`, 8..24 module id,
//! 24..28 little-endian `u32` blob version (1), 28..32 `u32` header size,
//! 32..40 `u64` total size; sections may follow in later versions.
//!
//! Any other fat binary (nvcc's) is a *foreign* image: at the first use of
//! one of its kernels or variables, [`crate::jit`] compiles its PTX into a
//! cucc device object, whose registration makes it a module like any other
//! (`docs/jit.md`).

use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_void, CStr};
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex, OnceLock, RwLock};

use crate::alloc_table::{insert_range, Kind};
use crate::errors::{CudaResult, Error};
use crate::jit::{memread, ForeignImage};
pub use crate::kernel::{
    CuccKernelFn, CuccLaunch, KernelImpl, KERNEL_OUTER_RANGES, KERNEL_THREAD_RANGES,
};
use crate::sync::lock;

/// Magic of the fat binary wrapper struct (`__fatBinC_Wrapper_t`).
pub const FATBIN_WRAPPER_MAGIC: c_int = 0x466243b1;
/// First 8 bytes of a cucc module blob.
pub const CUCC_BLOB_MAGIC: &[u8; 8] = b"CUCCMOD1";
/// Size of a module id.
pub const MODULE_ID_LEN: usize = 16;

/// A module id, shared by a host object's blob and its device object.
pub type ModuleId = [u8; MODULE_ID_LEN];

/// The registration tables of a device object (`cucc_kernel_info`,
/// `cucc_var_info`, `cucc_managed_info`), defined with the rest of the ABI.
pub use cucc_cpuify::abi::{
    KernelInfo as CuccKernelInfo, ManagedInfo as CuccManagedInfo, VarInfo as CuccVarInfo,
};

#[derive(Default)]
struct DeviceModule {
    kernels: HashMap<String, Arc<KernelImpl>>,
    vars: HashMap<String, (usize, usize)>,
    /// Managed variables: name → (slot address, size).
    managed: HashMap<String, (usize, usize)>,
}

/// What a registered fat binary holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Image {
    /// A cucc blob naming a device module.
    Cucc(ModuleId),
    /// Something else (an nvcc fat binary), named by its data address;
    /// compiled by the JIT at first use.
    Foreign(usize),
    /// A wrapper with the wrong magic.
    Invalid,
}

/// A kernel known from `__cudaRegisterFunction`.
pub struct Function {
    /// The module's image.
    pub image: Image,
    /// Mangled device name.
    pub device_name: String,
    kernel: OnceLock<Arc<KernelImpl>>,
    /// Dynamic shared memory a launch may request (`cudaFuncAttributeMaxDynamicSharedMemorySize`);
    /// `u64::MAX` means "the default".
    pub max_dynamic_shared: AtomicU64,
}

impl Function {
    /// The implementation, bound at first use.
    pub fn kernel(&self) -> CudaResult<Arc<KernelImpl>> {
        if let Some(k) = self.kernel.get() {
            return Ok(Arc::clone(k));
        }
        let found = match self.image {
            Image::Cucc(id) => {
                crate::sanitize::warn_if_unchecked(id, &self.device_name);
                let reg = read();
                let module = reg.modules.get(&id).ok_or(Error::NoKernelImageForDevice)?;
                module
                    .kernels
                    .get(&self.device_name)
                    .cloned()
                    .ok_or(Error::InvalidDeviceFunction)?
            }
            Image::Foreign(key) => {
                let ids = foreign_modules(key)?;
                let reg = read();
                ids.iter()
                    .find_map(|id| reg.modules.get(id)?.kernels.get(&self.device_name))
                    .cloned()
                    .ok_or(Error::InvalidDeviceFunction)?
            }
            Image::Invalid => return Err(Error::InvalidKernelImage),
        };
        Ok(Arc::clone(self.kernel.get_or_init(|| found)))
    }

    /// The device module holding the kernel (JIT-compiling a foreign image
    /// first), whose recorded source a simulated device compiles.
    pub fn module_id(&self) -> CudaResult<ModuleId> {
        match self.image {
            Image::Cucc(id) => Ok(id),
            Image::Foreign(key) => {
                let ids = foreign_modules(key)?;
                let reg = read();
                ids.into_iter()
                    .find(|id| {
                        reg.modules
                            .get(id)
                            .is_some_and(|m| m.kernels.contains_key(&self.device_name))
                    })
                    .ok_or(Error::InvalidDeviceFunction)
            }
            Image::Invalid => Err(Error::InvalidKernelImage),
        }
    }
}

struct Var {
    image: Image,
    device_name: String,
    size: usize,
    managed_slot: Option<usize>,
    /// Storage bound at first use (or made by the runtime for foreign images).
    bound: Option<(usize, usize)>,
}

#[derive(Default)]
struct Registry {
    modules: HashMap<ModuleId, DeviceModule>,
    fatbins: HashMap<usize, Image>,
    foreign: HashMap<usize, Arc<ForeignImage>>,
    functions: HashMap<usize, Arc<Function>>,
    vars: HashMap<usize, Var>,
}

static REGISTRY: OnceLock<RwLock<Registry>> = OnceLock::new();

fn registry() -> &'static RwLock<Registry> {
    REGISTRY.get_or_init(|| RwLock::new(Registry::default()))
}

fn read() -> std::sync::RwLockReadGuard<'static, Registry> {
    crate::sync::read(registry())
}

fn write() -> std::sync::RwLockWriteGuard<'static, Registry> {
    crate::sync::write(registry())
}

/// Serialises the load-time entry points (they mutate several maps together).
static LOAD: Mutex<()> = Mutex::new(());

/// Looks up a kernel by its host stub address.
pub fn function(host_fun: *const c_void) -> CudaResult<Arc<Function>> {
    read()
        .functions
        .get(&(host_fun as usize))
        .cloned()
        .ok_or(Error::InvalidDeviceFunction)
}

/// Copies a C string, tolerating NULL and invalid UTF-8.
///
/// # Safety
/// `s` must be NULL or a NUL-terminated string.
unsafe fn c_string(s: *const c_char) -> Option<String> {
    if s.is_null() {
        return None;
    }
    // SAFETY: caller promises a NUL-terminated string.
    Some(unsafe { CStr::from_ptr(s) }.to_string_lossy().into_owned())
}

/// Reads the image a fat binary wrapper describes (and, for a foreign
/// image, what the JIT will need).
///
/// # Safety
/// `wrapper` must be NULL or point to a readable wrapper whose `data` is NULL
/// or points to at least 24 readable bytes, and a foreign wrapper must name
/// readable fat binaries ([`ForeignImage::from_wrapper`]).
unsafe fn read_image(wrapper: *const c_void) -> (Image, Option<ForeignImage>) {
    // SAFETY: a wrapper is {int magic; int version; const void *data; void *list}.
    let Some(w) = (unsafe { memread::read(wrapper as usize, 24) }) else {
        return (Image::Invalid, None);
    };
    let word = |o: usize| usize::from_ne_bytes(w[o..o + 8].try_into().unwrap_or([0; 8]));
    let magic = c_int::from_ne_bytes([w[0], w[1], w[2], w[3]]);
    let version = c_int::from_ne_bytes([w[4], w[5], w[6], w[7]]);
    let (data, list) = (word(8), word(16));
    if magic != FATBIN_WRAPPER_MAGIC || data == 0 {
        return (Image::Invalid, None);
    }
    // SAFETY: every fat binary image starts with a header of at least 16
    // bytes and a cucc blob has 24 before its sections; memread checks.
    let head = unsafe { memread::read(data, 8 + MODULE_ID_LEN) }.unwrap_or_default();
    if head.get(..8) != Some(CUCC_BLOB_MAGIC.as_slice()) {
        // SAFETY: the caller's contract: a wrapper naming fat binaries.
        let image = unsafe { ForeignImage::from_wrapper(version, data, list) };
        return (Image::Foreign(data), Some(image));
    }
    let mut id = [0u8; MODULE_ID_LEN];
    id.copy_from_slice(&head[8..8 + MODULE_ID_LEN]);
    (Image::Cucc(id), None)
}

/// Whether a device object (cucc's or the JIT's) registered module `id`.
pub fn module_registered(id: &ModuleId) -> bool {
    read().modules.contains_key(id)
}

/// The modules of foreign image `key`, JIT-compiling it at the first call
/// (without holding the registry's locks: loading the compiled object
/// registers its kernels). Managed variables are bound once it is built.
fn foreign_modules(key: usize) -> CudaResult<Vec<ModuleId>> {
    let image = read()
        .foreign
        .get(&key)
        .cloned()
        .ok_or(Error::InvalidKernelImage)?;
    let first = image.modules_if_built().is_none();
    let ids = image.modules()?.to_vec();
    if first {
        let _load = lock(&LOAD);
        bind_managed(&mut write());
    }
    Ok(ids)
}

/// Makes sure `image`'s code exists (the JIT for foreign images).
fn prepare(image: Image) -> CudaResult {
    match image {
        Image::Foreign(key) => foreign_modules(key).map(|_| ()),
        Image::Cucc(_) => Ok(()),
        Image::Invalid => Err(Error::InvalidKernelImage),
    }
}

/// Binds a variable's storage, if its module provides it.
fn bind_var(reg: &mut Registry, host_var: usize) -> CudaResult<(usize, usize)> {
    let modules = &reg.modules;
    let var = reg.vars.get_mut(&host_var).ok_or(Error::InvalidSymbol)?;
    if let Some(b) = var.bound {
        return Ok(b);
    }
    let binding = match var.image {
        Image::Cucc(id) => {
            let module = modules.get(&id).ok_or(Error::InvalidSymbol)?;
            match module.managed.get(&var.device_name) {
                // The host shadow becomes the one storage: it takes the
                // initial value, and the kernels' pointer is redirected to it.
                Some(&(slot, size)) if var.managed_slot.is_none() => {
                    let slot = slot as *mut *mut u8;
                    // SAFETY: the slot is the device object's pointer to its
                    // storage of `size` bytes; the shadow has `var.size`
                    // bytes; both live as long as the program.
                    unsafe {
                        let storage = slot.read();
                        if !storage.is_null() && storage as usize != host_var {
                            std::ptr::copy_nonoverlapping(
                                storage,
                                host_var as *mut u8,
                                size.min(var.size),
                            );
                        }
                        slot.write(host_var as *mut u8);
                    }
                    // SAFETY: the host shadow, a program global of `var.size`
                    // bytes (the registration contract).
                    unsafe { insert_range(host_var, var.size, Kind::Symbol) };
                    (host_var, var.size)
                }
                _ => *module
                    .vars
                    .get(&var.device_name)
                    .ok_or(Error::InvalidSymbol)?,
            }
        }
        Image::Foreign(key) => {
            // Bound to the JIT module's storage, once the JIT has run (the
            // caller runs it first, outside the locks).
            let image = reg.foreign.get(&key).ok_or(Error::InvalidSymbol)?;
            if image.failed() && var.managed_slot.is_some() {
                // The host dereferences a managed variable's slot directly:
                // give it zeroed storage rather than a NULL to crash on.
                // SAFETY: calloc returns zeroed memory or NULL.
                let p = unsafe { libc::calloc(var.size.max(1), 1) } as usize;
                if p == 0 {
                    return Err(Error::MemoryAllocation);
                }
                // SAFETY: a fresh allocation of `var.size` bytes, never freed.
                unsafe { insert_range(p, var.size, Kind::Symbol) };
                var.bound = Some((p, var.size));
                if let Some(slot) = var.managed_slot {
                    // SAFETY: as below.
                    unsafe { (slot as *mut *mut c_void).write(p as *mut c_void) };
                }
                return Ok((p, var.size));
            }
            let ids = image.modules_if_built().ok_or(Error::InvalidSymbol)?;
            let found = *ids
                .iter()
                .find_map(|id| modules.get(id)?.vars.get(&var.device_name))
                .ok_or(Error::InvalidSymbol)?;
            if found.1 < var.size {
                warn(&format!(
                    "`{}`: the program registered {} bytes, its PTX declares {}",
                    var.device_name, var.size, found.1
                ));
            }
            found
        }
        Image::Invalid => return Err(Error::InvalidSymbol),
    };
    var.bound = Some(binding);
    if let Some(slot) = var.managed_slot {
        // SAFETY: `hostVarPtrAddress` from __cudaRegisterManagedVar is a
        // writable pointer-sized slot that lives as long as the program.
        unsafe { (slot as *mut *mut c_void).write(binding.0 as *mut c_void) };
    }
    Ok(binding)
}

/// The storage `(address, size)` of a variable named by its host shadow.
pub fn resolve_symbol(host_var: *const c_void) -> CudaResult<(usize, usize)> {
    if host_var.is_null() {
        return Err(Error::InvalidSymbol);
    }
    let image = {
        let reg = read();
        let Some(var) = reg.vars.get(&(host_var as usize)) else {
            // nvcc's host code names a `__managed__` variable by its
            // storage (it reads the variable through the registered slot),
            // so a bound managed variable is also found by its address.
            return reg
                .vars
                .values()
                .filter(|v| v.managed_slot.is_some())
                .find_map(|v| v.bound.filter(|b| b.0 == host_var as usize))
                .ok_or(Error::InvalidSymbol);
        };
        if let Some(b) = var.bound {
            return Ok(b);
        }
        var.image
    };
    if let Image::Foreign(key) = image {
        foreign_modules(key)?;
    }
    let _load = lock(&LOAD);
    bind_var(&mut write(), host_var as usize)
}

/// Binds every managed variable whose storage is now known: those
/// registered with `__cudaRegisterManagedVar`, and those a cucc device
/// object declares managed (`__cucc_register_managed`). Binding them at load
/// time, not at first use, is what makes host and kernels share them.
fn bind_managed(reg: &mut Registry) {
    let modules = &reg.modules;
    let pending: Vec<usize> = reg
        .vars
        .iter()
        .filter(|(_, v)| {
            v.bound.is_none()
                && (v.managed_slot.is_some()
                    || matches!(v.image, Image::Cucc(id)
                        if modules.get(&id).is_some_and(|m| m.managed.contains_key(&v.device_name))))
        })
        .map(|(k, _)| *k)
        .collect();
    for host_var in pending {
        let _ = bind_var(reg, host_var);
    }
}

/// Copies a C module id.
///
/// # Safety
/// `id` must be NULL or point to 16 readable bytes.
unsafe fn module_id(id: *const u8) -> Option<ModuleId> {
    if id.is_null() {
        return None;
    }
    let mut out = [0u8; MODULE_ID_LEN];
    // SAFETY: caller promises 16 readable bytes.
    out.copy_from_slice(unsafe { std::slice::from_raw_parts(id, MODULE_ID_LEN) });
    Some(out)
}

fn warn(msg: &str) {
    eprintln!("cucc runtime: {msg}");
}

/// Registers the kernels of a cucc device object (called by its constructor).
///
/// # Safety
/// `module_id` must point to 16 bytes; `kernels` to `n` valid entries whose
/// strings and parameter tables stay valid while the object is loaded.
#[no_mangle]
pub unsafe extern "C" fn __cucc_register_module(
    module_id_ptr: *const u8,
    kernels: *const CuccKernelInfo,
    n: usize,
) {
    let _ = std::panic::catch_unwind(|| {
        // SAFETY: forwarded contract.
        let Some(id) = (unsafe { module_id(module_id_ptr) }) else {
            return warn("__cucc_register_module: NULL module id");
        };
        if kernels.is_null() && n != 0 {
            return warn("__cucc_register_module: NULL kernel table");
        }
        let _load = lock(&LOAD);
        let mut reg = write();
        let module = reg.modules.entry(id).or_default();
        for i in 0..n {
            // SAFETY: caller promises `n` entries.
            let info = unsafe { &*kernels.add(i) };
            // SAFETY: caller promises a valid string.
            let (Some(name), Some(entry)) = (unsafe { c_string(info.device_name) }, info.entry)
            else {
                warn("__cucc_register_module: kernel without a name or an entry");
                continue;
            };
            let param_sizes = if info.num_params == 0 || info.param_sizes.is_null() {
                Vec::new()
            } else {
                // SAFETY: caller promises `num_params` sizes.
                unsafe { std::slice::from_raw_parts(info.param_sizes, info.num_params as usize) }
                    .to_vec()
            };
            module.kernels.insert(
                name.clone(),
                Arc::new(KernelImpl {
                    name,
                    entry,
                    static_shared: info.static_shared,
                    param_sizes,
                    thread_ranges: info.flags & KERNEL_THREAD_RANGES != 0,
                    outer_ranges: outer_ranges(info.flags),
                }),
            );
        }
    });
}

/// Hands the runtime the IR text a cucc device object was translated from
/// (called last by its constructor). Without `CUCC_SANITIZE` nothing
/// happens; with it, the kernels are rebuilt from the text with checks and
/// registered under the same module id, replacing the object's own
/// (docs/sanitize.md). A rebuild that fails leaves the unchecked kernels,
/// with a warning.
///
/// # Safety
/// `module_id` must point to 16 bytes, `ir` to `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn __cucc_register_module_ir(
    module_id_ptr: *const u8,
    ir: *const c_char,
    len: usize,
) {
    // Simulated devices compile kernels from this text.
    if crate::devices::any_simulated() && !ir.is_null() {
        // SAFETY: forwarded contract.
        if let Some(id) = unsafe { module_id(module_id_ptr) } {
            // SAFETY: caller promises `len` readable bytes.
            let bytes = unsafe { std::slice::from_raw_parts(ir as *const u8, len) };
            let text = String::from_utf8_lossy(bytes).into_owned();
            crate::kernel_ir::record(id, crate::kernel_ir::Source::Ir(text));
        }
    }
    if crate::sanitize::mode() == crate::sanitize::Sanitize::Off {
        return;
    }
    let _ = std::panic::catch_unwind(|| {
        // SAFETY: forwarded contract.
        let Some(id) = (unsafe { module_id(module_id_ptr) }) else {
            return warn("__cucc_register_module_ir: NULL module id");
        };
        if ir.is_null() {
            return warn("__cucc_register_module_ir: NULL text");
        }
        // SAFETY: caller promises `len` readable bytes.
        let bytes = unsafe { std::slice::from_raw_parts(ir as *const u8, len) };
        let text = String::from_utf8_lossy(bytes);
        match crate::jit::load_checked_ir(&text, id) {
            Ok(()) => crate::sanitize::note_checked(id),
            Err(e) => warn(&format!(
                "cannot build checked kernels ({e}); this module's kernels run unchecked"
            )),
        }
    });
}

/// The (outer, middle) dimensions of [`KERNEL_OUTER_RANGES`] in `flags`;
/// `None` without the bit or with a dimension out of range or repeated.
fn outer_ranges(flags: u32) -> Option<(usize, usize)> {
    let (o, m) = (((flags >> 2) & 3) as usize, ((flags >> 4) & 3) as usize);
    (flags & KERNEL_OUTER_RANGES != 0 && o < 3 && m < 3 && o != m).then_some((o, m))
}

/// A registration table entry, named by its device-side name.
trait Named {
    fn device_name(&self) -> *const c_char;
}

impl Named for CuccVarInfo {
    fn device_name(&self) -> *const c_char {
        self.device_name
    }
}

impl Named for CuccManagedInfo {
    fn device_name(&self) -> *const c_char {
        self.device_name
    }
}

/// The walk both `__cucc_register_variables` and `__cucc_register_managed`
/// make: checks the module id and the table (`what` names the call in
/// warnings), hands every named entry to `each` under the registry's lock,
/// then binds what became bindable. Never unwinds into C.
///
/// # Safety
/// `module_id_ptr` must point to 16 bytes; `entries` to `n` valid entries
/// whose names are NULL or C strings.
unsafe fn register_entries<T: Named>(
    what: &str,
    module_id_ptr: *const u8,
    entries: *const T,
    n: usize,
    mut each: impl FnMut(&mut Registry, ModuleId, String, &T),
) {
    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        // SAFETY: forwarded contract.
        let Some(id) = (unsafe { module_id(module_id_ptr) }) else {
            return warn(&format!("{what}: NULL module id"));
        };
        if entries.is_null() && n != 0 {
            return warn(&format!("{what}: NULL variable table"));
        }
        let _load = lock(&LOAD);
        let mut reg = write();
        for i in 0..n {
            // SAFETY: caller promises `n` entries.
            let info = unsafe { &*entries.add(i) };
            // SAFETY: caller promises a valid string.
            let Some(name) = (unsafe { c_string(info.device_name()) }) else {
                warn(&format!("{what}: variable without a name"));
                continue;
            };
            each(&mut reg, id, name, info);
        }
        bind_managed(&mut reg);
    }));
}

/// Registers the variables of a cucc device object (called by its
/// constructor, before or after `__cucc_register_module`). The storage is
/// recorded as device memory so device-pointer copies into it are accepted.
///
/// # Safety
/// `module_id` must point to 16 bytes; `vars` to `n` valid entries whose
/// storage stays valid while the object is loaded.
#[no_mangle]
pub unsafe extern "C" fn __cucc_register_variables(
    module_id_ptr: *const u8,
    vars: *const CuccVarInfo,
    n: usize,
) {
    let each = |reg: &mut Registry, id: ModuleId, name: String, info: &CuccVarInfo| {
        if info.storage.is_null() {
            warn(&format!(
                "__cucc_register_variables: `{name}` has no storage"
            ));
            return;
        }
        let size = info.size as usize;
        // SAFETY: the caller promises storage of `size` bytes that
        // stays valid while the object is loaded.
        unsafe { insert_range(info.storage as usize, size, Kind::Symbol) };
        reg.modules
            .entry(id)
            .or_default()
            .vars
            .insert(name, (info.storage as usize, size));
    };
    // SAFETY: forwarded contract.
    unsafe { register_entries("__cucc_register_variables", module_id_ptr, vars, n, each) }
}

/// Registers the `__managed__` variables of a cucc device object (called by
/// its constructor after `__cucc_register_variables`); each is bound to the
/// host program's copy as soon as the host side has registered it.
///
/// # Safety
/// `module_id` must point to 16 bytes; `vars` to `n` valid entries whose
/// slots stay valid while the object is loaded.
#[no_mangle]
pub unsafe extern "C" fn __cucc_register_managed(
    module_id_ptr: *const u8,
    vars: *const CuccManagedInfo,
    n: usize,
) {
    let each = |reg: &mut Registry, id: ModuleId, name: String, info: &CuccManagedInfo| {
        if info.slot.is_null() {
            warn(&format!("__cucc_register_managed: `{name}` has no slot"));
            return;
        }
        // A variable bound already (a checked rebuild registering the
        // module again, docs/sanitize.md): the new slot points at the
        // storage the program uses.
        let bound = reg.vars.values().find_map(|v| {
            (v.image == Image::Cucc(id) && v.device_name == name && v.managed_slot.is_none())
                .then_some(v.bound)
                .flatten()
        });
        if let Some((storage, _)) = bound {
            // SAFETY: the slot is the device object's pointer to its
            // storage (the registration contract); the storage lives as
            // long as the program.
            unsafe { info.slot.write(storage as *mut u8) };
        }
        reg.modules
            .entry(id)
            .or_default()
            .managed
            .insert(name, (info.slot as usize, info.size as usize));
    };
    // SAFETY: forwarded contract.
    unsafe { register_entries("__cucc_register_managed", module_id_ptr, vars, n, each) }
}

/// Registers a fat binary; returns the handle later registration calls pass.
///
/// # Safety
/// `fat_cubin` must point to a fat binary wrapper (see the module docs).
#[no_mangle]
pub unsafe extern "C" fn __cudaRegisterFatBinary(fat_cubin: *mut c_void) -> *mut *mut c_void {
    let handle = Box::into_raw(Box::new(fat_cubin));
    let _ = std::panic::catch_unwind(|| {
        // SAFETY: forwarded contract.
        let (image, foreign) = unsafe { read_image(fat_cubin) };
        if image == Image::Invalid {
            warn("__cudaRegisterFatBinary: not a fat binary wrapper; its kernels cannot run");
        }
        let _load = lock(&LOAD);
        let mut reg = write();
        reg.fatbins.insert(handle as usize, image);
        if let (Image::Foreign(key), Some(f)) = (image, foreign) {
            reg.foreign.entry(key).or_insert_with(|| Arc::new(f));
        }
    });
    handle
}

/// Marks the end of a fat binary's registrations (nothing to do: binding is lazy).
#[no_mangle]
pub extern "C" fn __cudaRegisterFatBinaryEnd(_handle: *mut *mut c_void) {}

/// Loads a fat binary's code now (nvcc calls it before the host first
/// touches a `__managed__` variable, whose slot must then hold the storage):
/// the JIT runs for foreign images and every managed variable is bound.
/// Returns 1 on success, 0 if the image cannot be loaded.
///
/// # Safety
/// `handle` must be NULL or a handle from `__cudaRegisterFatBinary`.
#[no_mangle]
pub unsafe extern "C" fn __cudaInitModule(handle: *mut *mut c_void) -> c_char {
    let r = std::panic::catch_unwind(|| {
        let r = prepare(image_of(handle));
        let _load = lock(&LOAD);
        bind_managed(&mut write());
        r
    });
    match r {
        Ok(Ok(())) => 1,
        _ => 0,
    }
}

/// Forgets a fat binary and its kernels and variables (called at exit).
///
/// # Safety
/// `handle` must be NULL or a handle from `__cudaRegisterFatBinary`.
#[no_mangle]
pub unsafe extern "C" fn __cudaUnregisterFatBinary(handle: *mut *mut c_void) {
    let _ = std::panic::catch_unwind(|| {
        let _load = lock(&LOAD);
        let mut reg = write();
        if reg.fatbins.remove(&(handle as usize)).is_some() {
            // SAFETY: the handle was made by Box::into_raw in registration and
            // is freed only here, once.
            drop(unsafe { Box::from_raw(handle) });
        }
    });
}

/// The image a fat binary handle names (`Image::Invalid` for an unknown
/// handle), for registrations other modules record.
pub(crate) fn image_of(handle: *mut *mut c_void) -> Image {
    let _load = lock(&LOAD);
    fatbin_image(&read(), handle)
}

fn fatbin_image(reg: &Registry, handle: *mut *mut c_void) -> Image {
    reg.fatbins
        .get(&(handle as usize))
        .copied()
        .unwrap_or(Image::Invalid)
}

/// Records a kernel: its host stub address and device name.
///
/// # Safety
/// `host_fun` identifies the stub; `device_name` must be a valid string.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn __cudaRegisterFunction(
    handle: *mut *mut c_void,
    host_fun: *const c_char,
    _device_fun: *mut c_char,
    device_name: *const c_char,
    _thread_limit: c_int,
    _tid: *mut c_void,
    _bid: *mut c_void,
    _block_dim: *mut c_void,
    _grid_dim: *mut c_void,
    _warp_size: *mut c_int,
) {
    let _ = std::panic::catch_unwind(|| {
        // SAFETY: forwarded contract.
        let Some(name) = (unsafe { c_string(device_name) }) else {
            return warn("__cudaRegisterFunction: NULL device name");
        };
        let _load = lock(&LOAD);
        let mut reg = write();
        let image = fatbin_image(&reg, handle);
        reg.functions.insert(
            host_fun as usize,
            Arc::new(Function {
                image,
                device_name: name,
                kernel: OnceLock::new(),
                max_dynamic_shared: AtomicU64::new(u64::MAX),
            }),
        );
    });
}

fn register_var(
    handle: *mut *mut c_void,
    host_var: usize,
    name: String,
    size: usize,
    managed_slot: Option<usize>,
) {
    let _load = lock(&LOAD);
    let mut reg = write();
    let image = fatbin_image(&reg, handle);
    reg.vars.insert(
        host_var,
        Var {
            image,
            device_name: name,
            size,
            managed_slot,
            bound: None,
        },
    );
    bind_managed(&mut reg);
}

/// Records a `__device__`/`__constant__` variable: its host shadow's address
/// names it in `cudaMemcpyToSymbol` and friends.
///
/// # Safety
/// `device_name` must be a valid string; `host_var` the program's shadow of
/// the variable, `size` writable bytes that live as long as the program (a
/// variable its device object declares managed is stored there).
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn __cudaRegisterVar(
    handle: *mut *mut c_void,
    host_var: *mut c_char,
    _device_address: *mut c_char,
    device_name: *const c_char,
    _ext: c_int,
    size: usize,
    _constant: c_int,
    _global: c_int,
) {
    let _ = std::panic::catch_unwind(|| {
        // SAFETY: forwarded contract.
        let Some(name) = (unsafe { c_string(device_name) }) else {
            return warn("__cudaRegisterVar: NULL device name");
        };
        register_var(handle, host_var as usize, name, size, None);
    });
}

/// Records a `__managed__` variable; the runtime stores the address of its
/// storage into `*host_var_ptr` as soon as the storage is known.
///
/// # Safety
/// `host_var_ptr` must be a writable pointer slot; `device_name` a valid string.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn __cudaRegisterManagedVar(
    handle: *mut *mut c_void,
    host_var_ptr: *mut *mut c_void,
    _device_address: *mut c_char,
    device_name: *const c_char,
    _ext: c_int,
    size: usize,
    _constant: c_int,
    _global: c_int,
) {
    let _ = std::panic::catch_unwind(|| {
        // SAFETY: forwarded contract.
        let Some(name) = (unsafe { c_string(device_name) }) else {
            return warn("__cudaRegisterManagedVar: NULL device name");
        };
        if host_var_ptr.is_null() {
            return warn("__cudaRegisterManagedVar: NULL variable slot");
        }
        register_var(
            handle,
            host_var_ptr as usize,
            name,
            size,
            Some(host_var_ptr as usize),
        );
    });
}

/// Accepted and ignored: surface references are not supported yet.
#[no_mangle]
pub extern "C" fn __cudaRegisterSurface(
    _handle: *mut *mut c_void,
    _host_var: *const c_void,
    _device_address: *const *const c_void,
    _device_name: *const c_char,
    _dim: c_int,
    _ext: c_int,
) {
}

/// The driver API's view of loaded modules (`crate::driver`): a kernel
/// handle (`CUfunction`) is registered like a host stub, so launches,
/// attributes and occupancy queries take the runtime's paths unchanged.
pub mod driver_hooks {
    use super::*;

    /// The names of module `id`'s kernels.
    pub fn module_kernels(id: &ModuleId) -> Vec<String> {
        read()
            .modules
            .get(id)
            .map(|m| m.kernels.keys().cloned().collect())
            .unwrap_or_default()
    }

    /// Kernel `name` of module `id`.
    pub fn module_kernel(id: &ModuleId, name: &str) -> Option<Arc<KernelImpl>> {
        read().modules.get(id)?.kernels.get(name).cloned()
    }

    /// The storage `(address, size)` of variable `name` of module `id`.
    pub fn module_var(id: &ModuleId, name: &str) -> Option<(usize, usize)> {
        let reg = read();
        let m = reg.modules.get(id)?;
        m.vars.get(name).copied().or_else(|| {
            m.managed.get(name).map(|&(slot, size)| {
                // SAFETY: a managed slot is the device object's pointer to
                // its storage, valid while the object is loaded (forever).
                (unsafe { (slot as *const usize).read() }, size)
            })
        })
    }

    /// Makes `handle` name kernel `name` of module `id` for launches.
    pub fn register_handle(handle: usize, id: ModuleId, name: &str) {
        let _load = lock(&LOAD);
        write().functions.insert(
            handle,
            Arc::new(Function {
                image: Image::Cucc(id),
                device_name: name.to_string(),
                kernel: OnceLock::new(),
                max_dynamic_shared: AtomicU64::new(u64::MAX),
            }),
        );
    }

    /// Forgets a handle made by [`register_handle`].
    pub fn unregister_handle(handle: usize) {
        let _load = lock(&LOAD);
        write().functions.remove(&handle);
    }
}
