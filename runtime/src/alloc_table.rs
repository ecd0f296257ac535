//! The allocation table: every range the runtime hands out or is told about
//! (device, managed and page-locked allocations, registered host ranges,
//! variable storage), keyed by start address. Copies and sets check device
//! pointers against it, and `cudaPointerGetAttributes` answers from it.
//!
//! A leaf module: it imports nothing of the crate but [`crate::sync`] and
//! the error type, so [`crate::memory`], which allocates and copies, and the
//! registry, which records variable storage, need not import each other
//! for it.

use std::collections::BTreeMap;
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

use crate::errors::{CudaResult, Error};

/// What kind of memory an allocation-table entry describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `cudaMalloc`, `cudaMallocPitch`, `cudaMalloc3D`.
    Device,
    /// `cudaMallocManaged`.
    Managed,
    /// `cudaMallocHost`, `cudaHostAlloc`.
    PinnedHost,
    /// A user range passed to `cudaHostRegister` (not owned).
    Registered,
    /// Storage of a `__device__`/`__constant__` variable (not owned).
    Symbol,
}

/// One allocation-table entry.
#[derive(Clone, Copy, Debug)]
pub struct Alloc {
    /// Size in bytes.
    pub size: usize,
    /// What the memory is.
    pub kind: Kind,
}

static TABLE: RwLock<BTreeMap<usize, Alloc>> = RwLock::new(BTreeMap::new());

/// Read-locks the table (held only for lookups).
pub(crate) fn read() -> RwLockReadGuard<'static, BTreeMap<usize, Alloc>> {
    crate::sync::read(&TABLE)
}

/// Write-locks the table (held only for inserts and removals).
pub(crate) fn write() -> RwLockWriteGuard<'static, BTreeMap<usize, Alloc>> {
    crate::sync::write(&TABLE)
}

/// The allocation containing `addr`, with its start address.
pub fn find(addr: usize) -> Option<(usize, Alloc)> {
    let table = read();
    let (&start, &alloc) = table.range(..=addr).next_back()?;
    (addr < start + alloc.size.max(1)).then_some((start, alloc))
}

/// Records a range the runtime does not own (variable storage, registered memory).
///
/// # Safety
/// `[start, start + size)` must be memory valid for reads and writes for
/// as long as it stays in the table: copies, sets and kernels will use it.
pub unsafe fn insert_range(start: usize, size: usize, kind: Kind) {
    if start != 0 {
        write().insert(start, Alloc { size, kind });
    }
}

/// Checks that `[ptr, ptr + len)` lies inside one live allocation.
pub fn check_device_range(ptr: usize, len: usize) -> CudaResult {
    if ptr == 0 {
        return Err(Error::InvalidValue);
    }
    let (start, alloc) = find(ptr).ok_or(Error::InvalidValue)?;
    let end = ptr.checked_add(len).ok_or(Error::InvalidValue)?;
    if end > start + alloc.size {
        return Err(Error::InvalidValue);
    }
    Ok(())
}
