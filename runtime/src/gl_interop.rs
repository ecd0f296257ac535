//! The OpenGL interoperability entry points (`cuda_gl_interop.h`).
//!
//! cucc's device is the CPU, and an OpenGL implementation keeps its buffers
//! and textures where the runtime cannot reach them (on a GPU, or inside a
//! software rasteriser's own allocations), so no OpenGL object can be
//! registered: registration returns `cudaErrorNotSupported`, and since no
//! resource can exist, every call on one returns
//! `cudaErrorInvalidResourceHandle`. `cudaGLGetDevices` reports that no
//! CUDA device drives the OpenGL context, which is what CUDA answers on a
//! machine whose GL context runs elsewhere. Programs that only include
//! the header (Rodinia's hybridsort) build and run unaffected.

use crate::cudaError_t;
use crate::errors::{api, write_out, Error};
use crate::ffi::cudaStream_t;
use std::ffi::{c_int, c_uint, c_void};

/// An OpenGL object cannot be registered.
fn unsupported(call: &str) -> Error {
    crate::log::log(crate::log::Level::Warn, || {
        format!("{call}: OpenGL interoperability is not supported (the device is the CPU, which shares no memory with OpenGL)")
    });
    Error::NotSupported
}

/// No CUDA device drives the current OpenGL context.
///
/// # Safety
/// `count` must be NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cudaGLGetDevices(
    count: *mut c_uint,
    _devices: *mut c_int,
    _capacity: c_uint,
    _list: c_int,
) -> cudaError_t {
    api(|| {
        // SAFETY: forwarded contract.
        unsafe { write_out(count, 0) }?;
        Err(Error::NoDevice)
    })
}

/// Registering an OpenGL texture or renderbuffer is not supported.
#[no_mangle]
pub extern "C" fn cudaGraphicsGLRegisterImage(
    _resource: *mut *mut c_void,
    _image: c_uint,
    _target: c_uint,
    _flags: c_uint,
) -> cudaError_t {
    api(|| Err(unsupported("cudaGraphicsGLRegisterImage")))
}

/// Registering an OpenGL buffer object is not supported.
#[no_mangle]
pub extern "C" fn cudaGraphicsGLRegisterBuffer(
    _resource: *mut *mut c_void,
    _buffer: c_uint,
    _flags: c_uint,
) -> cudaError_t {
    api(|| Err(unsupported("cudaGraphicsGLRegisterBuffer")))
}

/// No graphics resource exists.
#[no_mangle]
pub extern "C" fn cudaGraphicsUnregisterResource(_resource: *mut c_void) -> cudaError_t {
    api(|| Err(Error::InvalidResourceHandle))
}

/// No graphics resource exists.
#[no_mangle]
pub extern "C" fn cudaGraphicsResourceSetMapFlags(
    _resource: *mut c_void,
    _flags: c_uint,
) -> cudaError_t {
    api(|| Err(Error::InvalidResourceHandle))
}

/// No graphics resource exists to map.
#[no_mangle]
pub extern "C" fn cudaGraphicsMapResources(
    _count: c_int,
    _resources: *mut *mut c_void,
    _stream: cudaStream_t,
) -> cudaError_t {
    api(|| Err(Error::InvalidResourceHandle))
}

/// No graphics resource exists to unmap.
#[no_mangle]
pub extern "C" fn cudaGraphicsUnmapResources(
    _count: c_int,
    _resources: *mut *mut c_void,
    _stream: cudaStream_t,
) -> cudaError_t {
    api(|| Err(Error::InvalidResourceHandle))
}

/// No graphics resource exists to be mapped.
#[no_mangle]
pub extern "C" fn cudaGraphicsResourceGetMappedPointer(
    _ptr: *mut *mut c_void,
    _size: *mut usize,
    _resource: *mut c_void,
) -> cudaError_t {
    api(|| Err(Error::InvalidResourceHandle))
}

/// No graphics resource exists to be mapped.
#[no_mangle]
pub extern "C" fn cudaGraphicsSubResourceGetMappedArray(
    _array: *mut *mut c_void,
    _resource: *mut c_void,
    _index: c_uint,
    _level: c_uint,
) -> cudaError_t {
    api(|| Err(Error::InvalidResourceHandle))
}

/// The deprecated GL device selection: no device can drive OpenGL.
#[no_mangle]
pub extern "C" fn cudaGLSetGLDevice(_device: c_int) -> cudaError_t {
    api(|| Err(unsupported("cudaGLSetGLDevice")))
}

/// The deprecated buffer-object registration is not supported.
#[no_mangle]
pub extern "C" fn cudaGLRegisterBufferObject(_buffer: c_uint) -> cudaError_t {
    api(|| Err(unsupported("cudaGLRegisterBufferObject")))
}

/// The deprecated buffer-object mapping is not supported.
#[no_mangle]
pub extern "C" fn cudaGLMapBufferObject(_ptr: *mut *mut c_void, _buffer: c_uint) -> cudaError_t {
    api(|| Err(unsupported("cudaGLMapBufferObject")))
}

/// The deprecated buffer-object mapping is not supported.
#[no_mangle]
pub extern "C" fn cudaGLMapBufferObjectAsync(
    _ptr: *mut *mut c_void,
    _buffer: c_uint,
    _stream: cudaStream_t,
) -> cudaError_t {
    api(|| Err(unsupported("cudaGLMapBufferObjectAsync")))
}

/// No buffer object is registered.
#[no_mangle]
pub extern "C" fn cudaGLUnmapBufferObject(_buffer: c_uint) -> cudaError_t {
    api(|| Err(Error::InvalidResourceHandle))
}

/// No buffer object is registered.
#[no_mangle]
pub extern "C" fn cudaGLUnmapBufferObjectAsync(
    _buffer: c_uint,
    _stream: cudaStream_t,
) -> cudaError_t {
    api(|| Err(Error::InvalidResourceHandle))
}

/// No buffer object is registered.
#[no_mangle]
pub extern "C" fn cudaGLUnregisterBufferObject(_buffer: c_uint) -> cudaError_t {
    api(|| Err(Error::InvalidResourceHandle))
}

/// No buffer object is registered.
#[no_mangle]
pub extern "C" fn cudaGLSetBufferObjectMapFlags(_buffer: c_uint, _flags: c_uint) -> cudaError_t {
    api(|| Err(Error::InvalidResourceHandle))
}
