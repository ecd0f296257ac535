//! Textures: texture objects (`cudaCreateTextureObject`), legacy texture
//! references (`texture<T, dim, mode>` bound with `cudaBindTexture*`), and
//! the per-launch view kernels read them through (`cucc_tex_api`).
//!
//! Texture objects and legacy references share one table of slots; a
//! handle is a slot index (0 is never used, so 0 stays "no texture"). Each
//! slot holds the [`TexDesc`] kernels read. A legacy reference gets its slot
//! when either side names it first: the host object
//! (`__cudaRegisterTexture`, by the address of its `textureReference`) or
//! the device object (`__cucc_register_textures`, which receives the handle
//! its `tex.ref` ops read). Both name the reference by module and device
//! name.
//!
//! A launch takes a snapshot of the table: an immutable array of
//! descriptors, rebuilt only when the table changed since the last launch,
//! that the launch keeps alive (with the arrays it reads) until it
//! completes. Before the snapshot, the sampling state of every bound legacy
//! reference is re-read from its host `textureReference` (`normalized`,
//! `filterMode`, `addressMode`), since programs set those fields on the
//! host variable, before or after binding.

use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_void, CStr};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use crate::array::{Array, Format};
use crate::errors::{api, api_dev, cudaError_t, non_null, write_out, CudaResult, Error};
use crate::ffi::{
    cudaChannelFormatDesc, cudaResourceDesc, cudaResourceViewDesc, cudaTextureDesc,
    textureReference,
};
use crate::memory::find;
use crate::registry::{image_of, Image};
use crate::sample::{float_valued, natural_out_kind, sample, FORMAT_FLOAT};
use crate::sync::lock;
use crate::texture_abi::{
    Snapshot, TexDesc, TexRefInfo, ADDRESS_CLAMP, RAW_NONE, RESOURCE_ARRAY, RESOURCE_LINEAR,
    RESOURCE_PITCH2D, STATE_READY, STATE_UNBOUND,
};

/// What a texture reads: the memory and its geometry.
#[derive(Clone, Debug)]
struct Resource {
    data: usize,
    width: u64,
    height: u64,
    depth: u64,
    pitch: u64,
    slice_pitch: u64,
    kind: u8,
    format: Format,
    /// Keeps an array's storage alive while a texture reads it.
    array: Option<Arc<Array>>,
}

/// How a texture samples.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Sampling {
    address: [u8; 3],
    filter: u8,
    read_normalized: u8,
    normalized_coords: u8,
    border: [f32; 4],
}

fn descriptor(r: &Resource, s: &Sampling) -> TexDesc {
    let f = &r.format;
    let raw_kind = if r.kind == RESOURCE_LINEAR {
        let probe = TexDesc {
            channel_bits: f.bits,
            format: f.kind,
            read_normalized: s.read_normalized,
            ..TexDesc::INVALID
        };
        // A plain copy is right when values are read as stored: integer
        // element reads, and 32-bit float channels.
        let as_stored = if f.kind == FORMAT_FLOAT {
            f.bits == 32
        } else {
            !float_valued(&probe)
        };
        if as_stored {
            natural_out_kind(&probe) as u8
        } else {
            RAW_NONE
        }
    } else {
        RAW_NONE
    };
    TexDesc {
        data: r.data as *const u8,
        width: r.width,
        height: r.height,
        depth: r.depth,
        pitch: r.pitch,
        slice_pitch: r.slice_pitch,
        texel_size: f.texel_size() as u32,
        state: STATE_READY,
        raw_kind,
        channels: f.channels,
        channel_bits: f.bits,
        format: f.kind,
        read_normalized: s.read_normalized,
        filter: s.filter,
        normalized_coords: s.normalized_coords,
        address: s.address,
        resource: r.kind,
        border: s.border,
    }
}

/// A texture object.
struct Object {
    res: cudaResourceDesc,
    tex: cudaTextureDesc,
    view: Option<cudaResourceViewDesc>,
    resource: Resource,
    sampling: Sampling,
}

// SAFETY: the descriptors' pointers are only copied out, never dereferenced
// through the table.
unsafe impl Send for Object {}

/// A legacy texture reference.
struct Reference {
    /// The host `textureReference`, once the host object registered it.
    host: Option<usize>,
    /// `cudaReadModeNormalizedFloat` (from the registration).
    read_normalized: bool,
    bound: Option<Resource>,
    /// The sampling state the descriptor was built with.
    sampling: Sampling,
}

enum Slot {
    Free,
    Object(Box<Object>),
    Reference(Reference),
}

#[derive(Default)]
struct Table {
    slots: Vec<Slot>,
    free: Vec<usize>,
    /// Legacy references by (module, device name).
    by_name: HashMap<(Image, String), usize>,
    /// Legacy references by host `textureReference` address.
    by_host: HashMap<usize, usize>,
    snapshot: Option<Arc<Snapshot>>,
}

static TABLE: Mutex<Option<Table>> = Mutex::new(None);
/// Set once any texture exists: launches of programs without textures skip
/// the table entirely.
static IN_USE: AtomicBool = AtomicBool::new(false);

fn with_table<T>(f: impl FnOnce(&mut Table) -> T) -> T {
    let mut guard = lock(&TABLE);
    let table = guard.get_or_insert_with(|| Table {
        slots: vec![Slot::Free],
        ..Table::default()
    });
    IN_USE.store(true, Ordering::Relaxed);
    f(table)
}

impl Table {
    fn changed(&mut self) {
        self.snapshot = None;
    }

    fn alloc(&mut self, slot: Slot) -> usize {
        self.changed();
        if let Some(i) = self.free.pop() {
            self.slots[i] = slot;
            i
        } else {
            self.slots.push(slot);
            self.slots.len() - 1
        }
    }

    fn reference_slot(&mut self, image: Image, name: &str) -> usize {
        if let Some(&i) = self.by_name.get(&(image, name.to_string())) {
            return i;
        }
        let i = self.alloc(Slot::Reference(Reference {
            host: None,
            read_normalized: false,
            bound: None,
            sampling: legacy_sampling(None, false),
        }));
        self.by_name.insert((image, name.to_string()), i);
        i
    }

    fn reference(&mut self, host: *const textureReference) -> CudaResult<&mut Reference> {
        let i = *self
            .by_host
            .get(&(host as usize))
            .ok_or(Error::InvalidTexture)?;
        self.changed();
        match self.slots.get_mut(i) {
            Some(Slot::Reference(r)) => Ok(r),
            _ => Err(Error::InvalidTexture),
        }
    }

    /// Re-reads the host state of bound references; drops the snapshot if
    /// any changed.
    fn refresh_references(&mut self) {
        let mut changed = false;
        for slot in &mut self.slots {
            if let Slot::Reference(r) = slot {
                if r.bound.is_some() {
                    let s = legacy_sampling(r.host, r.read_normalized);
                    if s != r.sampling {
                        r.sampling = s;
                        changed = true;
                    }
                }
            }
        }
        if changed {
            self.changed();
        }
    }

    fn snapshot(&mut self) -> Arc<Snapshot> {
        if let Some(s) = &self.snapshot {
            return Arc::clone(s);
        }
        let mut arrays: Vec<Arc<dyn Send + Sync>> = Vec::new();
        let descs: Vec<TexDesc> = self
            .slots
            .iter()
            .map(|slot| match slot {
                Slot::Free => TexDesc::INVALID,
                Slot::Object(o) => {
                    arrays.extend(owner(&o.resource));
                    descriptor(&o.resource, &o.sampling)
                }
                Slot::Reference(r) => match &r.bound {
                    Some(res) => {
                        arrays.extend(owner(res));
                        descriptor(res, &r.sampling)
                    }
                    None => TexDesc {
                        state: STATE_UNBOUND,
                        ..TexDesc::INVALID
                    },
                },
            })
            .collect();
        let snapshot = Arc::new(Snapshot::new(descs, arrays, cucc_tex_fetch));
        self.snapshot = Some(Arc::clone(&snapshot));
        snapshot
    }
}

/// What keeps a resource's memory alive while a snapshot reads it: its
/// array, if it is one (the program keeps linear memory alive).
fn owner(r: &Resource) -> Option<Arc<dyn Send + Sync>> {
    r.array.clone().map(|a| a as Arc<dyn Send + Sync>)
}

/// The texture view for a launch being submitted, or `None` if the program
/// has no textures.
pub fn launch_snapshot() -> Option<Arc<Snapshot>> {
    if !IN_USE.load(Ordering::Relaxed) {
        return None;
    }
    Some(with_table(|t| {
        t.refresh_references();
        t.snapshot()
    }))
}

/// Forgets every texture object and unbinds every reference
/// (`cudaDeviceReset`). Registrations stay.
pub fn release_all() {
    let mut guard = lock(&TABLE);
    if let Some(t) = guard.as_mut() {
        for (i, slot) in t.slots.iter_mut().enumerate() {
            match slot {
                Slot::Object(_) => {
                    *slot = Slot::Free;
                    t.free.push(i);
                }
                Slot::Reference(r) => r.bound = None,
                Slot::Free => {}
            }
        }
        t.changed();
    }
}

fn address_mode(m: c_int) -> CudaResult<u8> {
    u8::try_from(m)
        .ok()
        .filter(|&m| m <= 3)
        .ok_or(Error::InvalidValue)
}

/// A legacy reference's sampling, read from its host variable (clamp,
/// point, unnormalized when there is none).
fn legacy_sampling(host: Option<usize>, read_normalized: bool) -> Sampling {
    let mut s = Sampling {
        address: [ADDRESS_CLAMP; 3],
        filter: 0,
        read_normalized: u8::from(read_normalized),
        normalized_coords: 0,
        border: [0.0; 4],
    };
    if let Some(h) = host {
        // SAFETY: `h` is the `textureReference` the host object registered;
        // it is a global of the program and lives as long as the program.
        let r = unsafe { (h as *const textureReference).read() };
        for (a, m) in s.address.iter_mut().zip(r.addressMode) {
            *a = address_mode(m).unwrap_or(ADDRESS_CLAMP);
        }
        s.filter = u8::from(r.filterMode == 1);
        s.normalized_coords = u8::from(r.normalized != 0);
    }
    s
}

/// Linear memory as a 1D resource: `size` bytes at `ptr`, cut to the
/// allocation holding it.
fn linear(ptr: *const c_void, format: Format, size: usize) -> CudaResult<Resource> {
    let (start, alloc) = find(ptr as usize).ok_or(Error::InvalidValue)?;
    let avail = start + alloc.size - ptr as usize;
    let bytes = size.min(avail);
    let texel = format.texel_size();
    let width = (bytes / texel) as u64;
    Ok(Resource {
        data: ptr as usize,
        width,
        height: 1,
        depth: 1,
        pitch: width * texel as u64,
        slice_pitch: width * texel as u64,
        kind: RESOURCE_LINEAR,
        format,
        array: None,
    })
}

fn pitch2d(
    ptr: *const c_void,
    format: Format,
    width: usize,
    height: usize,
    pitch: usize,
) -> CudaResult<Resource> {
    let texel = format.texel_size();
    let row = width.checked_mul(texel).ok_or(Error::InvalidValue)?;
    if width == 0 || height == 0 || pitch < row {
        return Err(Error::InvalidValue);
    }
    let extent = pitch
        .checked_mul(height - 1)
        .and_then(|v| v.checked_add(row))
        .ok_or(Error::InvalidValue)?;
    crate::memory::check_device_range(ptr as usize, extent)?;
    Ok(Resource {
        data: ptr as usize,
        width: width as u64,
        height: height as u64,
        depth: 1,
        pitch: pitch as u64,
        slice_pitch: (pitch * height) as u64,
        kind: RESOURCE_PITCH2D,
        format,
        array: None,
    })
}

fn array_resource(a: Arc<Array>) -> Resource {
    Resource {
        data: a.data,
        width: a.width() as u64,
        height: a.rows() as u64,
        depth: a.slices() as u64,
        pitch: a.pitch() as u64,
        slice_pitch: (a.pitch() * a.rows()) as u64,
        kind: RESOURCE_ARRAY,
        format: a.format,
        array: Some(a),
    }
}

/// The format a channel descriptor names.
///
/// # Safety
/// `desc` must be NULL or point to a readable descriptor.
unsafe fn channel_format(desc: *const cudaChannelFormatDesc) -> CudaResult<Format> {
    non_null(desc)?;
    // SAFETY: non-null; the caller's contract.
    Format::new(unsafe { &*desc })
}

fn object_resource(res: &cudaResourceDesc) -> CudaResult<Resource> {
    // SAFETY (union reads): `resType` says which member is live.
    unsafe {
        match res.resType {
            0 => Ok(array_resource(crate::array::get(res.res.array)?)),
            1 => Err(Error::NotSupported),
            2 => {
                let l = res.res.linear;
                let format = Format::new(&l.desc)?;
                if l.sizeInBytes == 0 {
                    return Err(Error::InvalidValue);
                }
                crate::memory::check_device_range(l.devPtr as usize, l.sizeInBytes)?;
                linear(l.devPtr, format, l.sizeInBytes)
            }
            3 => {
                let p = res.res.pitch2D;
                pitch2d(
                    p.devPtr,
                    Format::new(&p.desc)?,
                    p.width,
                    p.height,
                    p.pitchInBytes,
                )
            }
            _ => Err(Error::InvalidValue),
        }
    }
}

/// Creates a texture object. Mipmapped arrays are not supported
/// (`cudaErrorNotSupported`); a resource view is accepted and ignored.
///
/// # Safety
/// Each pointer must be NULL or valid (`p_tex_object` for a write, the
/// descriptors for reads).
#[no_mangle]
pub unsafe extern "C" fn cudaCreateTextureObject(
    p_tex_object: *mut u64,
    p_res_desc: *const cudaResourceDesc,
    p_tex_desc: *const cudaTextureDesc,
    p_view_desc: *const cudaResourceViewDesc,
) -> cudaError_t {
    api_dev(|| {
        non_null(p_tex_object)?;
        non_null(p_res_desc)?;
        non_null(p_tex_desc)?;
        // SAFETY: non-null; caller promises readable structs.
        let (res, tex) = unsafe { (*p_res_desc, *p_tex_desc) };
        // SAFETY: NULL or readable, per the contract.
        let view = unsafe { p_view_desc.as_ref().copied() };
        let resource = object_resource(&res)?;
        let mut address = [ADDRESS_CLAMP; 3];
        for (a, &m) in address.iter_mut().zip(&tex.addressMode) {
            *a = address_mode(m)?;
        }
        if !(0..=1).contains(&tex.filterMode) || !(0..=1).contains(&tex.readMode) {
            return Err(Error::InvalidValue);
        }
        let sampling = Sampling {
            address,
            filter: tex.filterMode as u8,
            read_normalized: tex.readMode as u8,
            normalized_coords: u8::from(tex.normalizedCoords != 0),
            border: tex.borderColor,
        };
        let handle = with_table(|t| {
            t.alloc(Slot::Object(Box::new(Object {
                res,
                tex,
                view,
                resource,
                sampling,
            })))
        });
        // SAFETY: checked non-null; caller promises validity.
        unsafe { write_out(p_tex_object, handle as u64) }
    })
}

/// Destroys a texture object (launches already submitted keep reading it).
#[no_mangle]
pub extern "C" fn cudaDestroyTextureObject(tex_object: u64) -> cudaError_t {
    api_dev(|| {
        with_table(|t| {
            let i = usize::try_from(tex_object).map_err(|_| Error::InvalidValue)?;
            match t.slots.get(i) {
                Some(Slot::Object(_)) => {
                    t.slots[i] = Slot::Free;
                    t.free.push(i);
                    t.changed();
                    Ok(())
                }
                _ => Err(Error::InvalidValue),
            }
        })
    })
}

fn with_object<T>(tex_object: u64, f: impl FnOnce(&Object) -> T) -> CudaResult<T> {
    with_table(|t| match t.slots.get(tex_object as usize) {
        Some(Slot::Object(o)) => Ok(f(o)),
        _ => Err(Error::InvalidValue),
    })
}

/// The resource description a texture object was created with.
///
/// # Safety
/// `p_res_desc` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaGetTextureObjectResourceDesc(
    p_res_desc: *mut cudaResourceDesc,
    tex_object: u64,
) -> cudaError_t {
    api_dev(|| {
        let res = with_object(tex_object, |o| o.res)?;
        // SAFETY: forwarded contract.
        unsafe { write_out(p_res_desc, res) }
    })
}

/// The texture description a texture object was created with.
///
/// # Safety
/// `p_tex_desc` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaGetTextureObjectTextureDesc(
    p_tex_desc: *mut cudaTextureDesc,
    tex_object: u64,
) -> cudaError_t {
    api_dev(|| {
        let tex = with_object(tex_object, |o| o.tex)?;
        // SAFETY: forwarded contract.
        unsafe { write_out(p_tex_desc, tex) }
    })
}

/// The resource view a texture object was created with (`cudaErrorInvalidValue`
/// if it had none).
///
/// # Safety
/// `p_view_desc` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaGetTextureObjectResourceViewDesc(
    p_view_desc: *mut cudaResourceViewDesc,
    tex_object: u64,
) -> cudaError_t {
    api_dev(|| {
        let view = with_object(tex_object, |o| o.view)?.ok_or(Error::InvalidValue)?;
        // SAFETY: forwarded contract.
        unsafe { write_out(p_view_desc, view) }
    })
}

fn bind(texref: *const textureReference, resource: Resource) -> CudaResult {
    if texref.is_null() {
        return Err(Error::InvalidTexture);
    }
    let desc = resource.format.desc;
    with_table(|t| {
        let r = t.reference(texref)?;
        r.sampling = legacy_sampling(r.host, r.read_normalized);
        r.bound = Some(resource);
        Ok(())
    })?;
    // CUDA records the bound format in the reference.
    // SAFETY: a registered reference is a writable program global.
    unsafe { (*(texref as *mut textureReference)).channelDesc = desc };
    Ok(())
}

fn check_registered(texref: *const textureReference) -> CudaResult {
    with_table(|t| t.reference(texref).map(|_| ()))
}

/// Binds linear memory to a legacy reference. `size` is cut to the end of
/// the allocation holding `dev_ptr`; no alignment offset is ever needed, so
/// `*offset` (if given) is 0.
///
/// # Safety
/// `offset` must be NULL or valid for a write; `texref` a registered reference
/// or NULL; `desc` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn cudaBindTexture(
    offset: *mut usize,
    texref: *const textureReference,
    dev_ptr: *const c_void,
    desc: *const cudaChannelFormatDesc,
    size: usize,
) -> cudaError_t {
    api_dev(|| {
        check_registered(texref)?;
        // SAFETY: forwarded contract.
        let format = unsafe { channel_format(desc) }?;
        non_null(dev_ptr)?;
        let resource = linear(dev_ptr, format, size)?;
        bind(texref, resource)?;
        if !offset.is_null() {
            // SAFETY: non-null; caller promises validity.
            unsafe { offset.write(0) };
        }
        Ok(())
    })
}

/// Binds pitched 2D memory (`width` x `height` texels, `pitch` bytes per
/// row) to a legacy reference.
///
/// # Safety
/// As [`cudaBindTexture`].
#[no_mangle]
pub unsafe extern "C" fn cudaBindTexture2D(
    offset: *mut usize,
    texref: *const textureReference,
    dev_ptr: *const c_void,
    desc: *const cudaChannelFormatDesc,
    width: usize,
    height: usize,
    pitch: usize,
) -> cudaError_t {
    api_dev(|| {
        check_registered(texref)?;
        // SAFETY: forwarded contract.
        let format = unsafe { channel_format(desc) }?;
        let resource = pitch2d(dev_ptr, format, width, height, pitch)?;
        bind(texref, resource)?;
        if !offset.is_null() {
            // SAFETY: non-null; caller promises validity.
            unsafe { offset.write(0) };
        }
        Ok(())
    })
}

/// Binds an array to a legacy reference (the array's own format is used;
/// `desc` may be NULL).
///
/// # Safety
/// `texref` must be a registered reference or NULL; `desc` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn cudaBindTextureToArray(
    texref: *const textureReference,
    array: *const c_void,
    desc: *const cudaChannelFormatDesc,
) -> cudaError_t {
    api_dev(|| {
        check_registered(texref)?;
        if !desc.is_null() {
            // SAFETY: forwarded contract.
            unsafe { channel_format(desc) }?;
        }
        let a = crate::array::get(array)?;
        bind(texref, array_resource(a))
    })
}

/// Unbinds a legacy reference; later reads through it give zeros.
#[no_mangle]
pub extern "C" fn cudaUnbindTexture(texref: *const textureReference) -> cudaError_t {
    api_dev(|| {
        with_table(|t| {
            t.reference(texref)?.bound = None;
            Ok(())
        })
    })
}

/// The offset a binding needed for alignment: always 0 here.
///
/// # Safety
/// `offset` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaGetTextureAlignmentOffset(
    offset: *mut usize,
    texref: *const textureReference,
) -> cudaError_t {
    api_dev(|| {
        let bound = with_table(|t| t.reference(texref).map(|r| r.bound.is_some()))?;
        if !bound {
            return Err(Error::InvalidTextureBinding);
        }
        // SAFETY: forwarded contract.
        unsafe { write_out(offset, 0) }
    })
}

/// The `textureReference` of a `texture<>` variable (its own address, if
/// registered).
///
/// # Safety
/// `texref` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaGetTextureReference(
    texref: *mut *const textureReference,
    symbol: *const c_void,
) -> cudaError_t {
    api(|| {
        check_registered(symbol as *const textureReference)?;
        // SAFETY: forwarded contract.
        unsafe { write_out(texref, symbol as *const textureReference) }
    })
}

/// Records a legacy texture reference (`texture<T, dim, mode>` variable):
/// its host `textureReference`, device name and read mode (`norm`: 1 for
/// `cudaReadModeNormalizedFloat`). See the module docs.
///
/// # Safety
/// `host_var` must be the program's `textureReference`; `device_name` a
/// valid string.
#[no_mangle]
pub unsafe extern "C" fn __cudaRegisterTexture(
    handle: *mut *mut c_void,
    host_var: *const c_void,
    _device_address: *const *const c_void,
    device_name: *const c_char,
    _dim: c_int,
    norm: c_int,
    _ext: c_int,
) {
    let _ = std::panic::catch_unwind(|| {
        if device_name.is_null() {
            eprintln!("cucc runtime: __cudaRegisterTexture: NULL device name");
            return;
        }
        if host_var.is_null() {
            eprintln!("cucc runtime: __cudaRegisterTexture: NULL texture reference");
            return;
        }
        // SAFETY: non-null; the caller promises a NUL-terminated name.
        let name = unsafe { CStr::from_ptr(device_name) }
            .to_string_lossy()
            .into_owned();
        register_host(image_of(handle), host_var as usize, name, norm != 0);
    });
}

/// Records a host `texture<>` variable (`__cudaRegisterTexture`, emitted by
/// the host compiler): its address, its module and device name, and its read
/// mode (`norm` is the `cudaReadModeNormalizedFloat` template argument).
fn register_host(image: Image, host: usize, name: String, norm: bool) {
    with_table(|t| {
        let i = t.reference_slot(image, &name);
        t.by_host.insert(host, i);
        if let Some(Slot::Reference(r)) = t.slots.get_mut(i) {
            r.host = Some(host);
            r.read_normalized = norm;
        }
        t.changed();
    });
}

/// Registers the legacy texture references of a cucc device object and
/// writes each one's handle (what its `tex.ref` ops read).
///
/// # Safety
/// `module_id` must point to 16 bytes; `refs` to `n` entries with valid
/// names and writable handle slots.
#[no_mangle]
pub unsafe extern "C" fn __cucc_register_textures(
    module_id: *const u8,
    refs: *const TexRefInfo,
    n: usize,
) {
    let _ = std::panic::catch_unwind(|| {
        if module_id.is_null() || (refs.is_null() && n != 0) {
            eprintln!("cucc runtime: __cucc_register_textures: NULL module id or table");
            return;
        }
        let mut id = [0u8; 16];
        // SAFETY: caller promises 16 readable bytes.
        id.copy_from_slice(unsafe { std::slice::from_raw_parts(module_id, 16) });
        with_table(|t| {
            for k in 0..n {
                // SAFETY: caller promises `n` entries.
                let info = unsafe { *refs.add(k) };
                if info.device_name.is_null() || info.handle.is_null() {
                    eprintln!(
                        "cucc runtime: __cucc_register_textures: entry without a name or a slot"
                    );
                    continue;
                }
                // SAFETY: caller promises a NUL-terminated name.
                let name = unsafe { CStr::from_ptr(info.device_name as *const c_char) }
                    .to_string_lossy()
                    .into_owned();
                let i = t.reference_slot(Image::Cucc(id), &name);
                // SAFETY: caller promises a writable slot.
                unsafe { info.handle.write(i as u64) };
            }
        });
    });
}

/// `cucc_tex_api.fetch`: samples a descriptor (see [`crate::sample`]).
///
/// # Safety
/// `desc` must point to a descriptor of a live snapshot; `out` to 16
/// writable bytes.
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cucc_tex_fetch(
    desc: *const TexDesc,
    kind: i32,
    icoord: i32,
    x: f32,
    y: f32,
    z: f32,
    out_kind: i32,
    out: *mut c_void,
) {
    if desc.is_null() || out.is_null() {
        return;
    }
    // SAFETY: caller's contract; the snapshot keeps the memory readable.
    let bytes = unsafe { sample(&*desc, kind, icoord, [x, y, z], out_kind) };
    // SAFETY: `out` has 16 writable bytes.
    unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), out as *mut u8, 16) };
}
