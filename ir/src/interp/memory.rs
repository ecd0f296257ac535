//! The interpreter's memory: every allocation, host or device, bounds-checked.
//!
//! A pointer is `(allocation id << 32) | byte offset`; id 0 is never used,
//! so the null pointer is 0. Freed ids are quarantined for a while before
//! they are reused, so a use after free is caught unless the program frees
//! thousands of allocations in between (private allocas come and go with
//! every thread; reusing their ids keeps the table small).

use super::error::InterpError;
use crate::func::Op;
use crate::module::{FuncId, GlobalId, Module};
use crate::types::Space;
use std::collections::VecDeque;

/// Largest single allocation: offsets are 32 bits.
pub const MAX_ALLOC: u64 = 1 << 32;

/// Freed ids wait this long in quarantine before reuse.
const QUARANTINE: usize = 4096;

/// What an allocation is, for error messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A buffer the host allocated with [`Memory::alloc`].
    Host,
    /// A global or constant module variable.
    Global(GlobalId),
    /// One block's instance of a static shared variable.
    SharedGlobal(GlobalId),
    /// One block's dynamic shared memory.
    DynamicShared,
    /// An `alloca` op executed by a thread.
    Alloca(FuncId, Op),
    /// A thread's private copy of a by-value kernel parameter.
    Byval(u32),
}

/// The kind of access that faulted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// A `load` op or a host read.
    Load,
    /// A `store` op or a host write.
    Store,
    /// An atomic read-modify-write or compare-and-swap.
    Atomic,
    /// The source side of a `memcpy`.
    CopyFrom,
    /// The destination side of a `memcpy` or a `memset`.
    CopyTo,
    /// Reading a `printf` `%s` string.
    String,
    /// Freeing.
    Free,
}

impl Access {
    fn name(self) -> &'static str {
        match self {
            Access::Load => "load",
            Access::Store => "store",
            Access::Atomic => "atomic",
            Access::CopyFrom => "memcpy read",
            Access::CopyTo => "write",
            Access::String => "string read",
            Access::Free => "free",
        }
    }
}

/// Why an access failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// The pointer is null.
    Null,
    /// No allocation has the pointer's id.
    Wild,
    /// The allocation was freed.
    Freed,
    /// The access reaches past the allocation's end.
    OutOfBounds,
    /// A device write to constant memory.
    ReadOnly,
    /// An allocation larger than the interpreter supports.
    TooLarge,
}

/// A failed memory access, before it is given a site.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemFault {
    /// What was attempted.
    pub access: Access,
    /// The pointer used.
    pub ptr: u64,
    /// The number of bytes accessed.
    pub len: u64,
    /// Why it failed.
    pub kind: FaultKind,
}

#[derive(Clone, Debug)]
struct Allocation {
    data: Vec<u8>,
    space: Space,
    origin: Origin,
    live: bool,
}

/// All allocations of an interpreter.
#[derive(Clone, Debug)]
pub struct Memory {
    allocs: Vec<Allocation>,
    quarantine: VecDeque<u32>,
    transient: Vec<u32>,
}

impl Default for Memory {
    fn default() -> Self {
        Self::new()
    }
}

fn split(ptr: u64) -> (usize, u64) {
    ((ptr >> 32) as usize, ptr & 0xffff_ffff)
}

macro_rules! typed_access {
    ($($t:ty, $w:ident, $r:ident;)*) => {$(
        #[doc = concat!("Writes `values` as consecutive little-endian `", stringify!($t), "`s.")]
        pub fn $w(&mut self, ptr: u64, values: &[$t]) -> Result<(), InterpError> {
            let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
            self.write(ptr, &bytes)
        }
        #[doc = concat!("Reads `count` consecutive little-endian `", stringify!($t), "`s.")]
        pub fn $r(&self, ptr: u64, count: usize) -> Result<Vec<$t>, InterpError> {
            const N: usize = std::mem::size_of::<$t>();
            let bytes = self.read(ptr, (count * N) as u64)?;
            Ok(bytes
                .chunks_exact(N)
                .map(|c| {
                    let mut a = [0u8; N];
                    a.copy_from_slice(c);
                    <$t>::from_le_bytes(a)
                })
                .collect())
        }
    )*};
}

impl Memory {
    /// Empty memory.
    pub fn new() -> Self {
        Memory {
            allocs: vec![Allocation {
                data: Vec::new(),
                space: Space::Global,
                origin: Origin::Host,
                live: false,
            }],
            quarantine: VecDeque::new(),
            transient: Vec::new(),
        }
    }

    /// Allocates `size` zero bytes for the host (a `cudaMalloc`), returning
    /// the pointer.
    ///
    /// # Panics
    /// If `size` exceeds [`MAX_ALLOC`] (4 GiB): a host-side misuse; use
    /// [`Memory::try_alloc`] to get an error instead.
    pub fn alloc(&mut self, space: Space, size: u64) -> u64 {
        match self.try_alloc(space, size, Origin::Host) {
            Ok(p) => p,
            Err(_) => panic!("allocation of {size} bytes exceeds the 4 GiB limit"),
        }
    }

    /// Allocates `size` zero bytes with a given origin.
    pub fn try_alloc(&mut self, space: Space, size: u64, origin: Origin) -> Result<u64, MemFault> {
        if size > MAX_ALLOC - 1 {
            return Err(MemFault {
                access: Access::Store,
                ptr: 0,
                len: size,
                kind: FaultKind::TooLarge,
            });
        }
        let alloc = Allocation {
            data: vec![0; size as usize],
            space,
            origin,
            live: true,
        };
        let id = if self.quarantine.len() > QUARANTINE {
            let id = self.quarantine.pop_front().unwrap_or(0);
            self.allocs[id as usize] = alloc;
            id
        } else {
            self.allocs.push(alloc);
            (self.allocs.len() - 1) as u32
        };
        Ok(u64::from(id) << 32)
    }

    /// Allocates device storage that [`Memory::release_transient`] frees
    /// when the launch ends, whatever happens.
    pub(crate) fn alloc_transient(
        &mut self,
        space: Space,
        size: u64,
        origin: Origin,
    ) -> Result<u64, MemFault> {
        let p = self.try_alloc(space, size, origin)?;
        self.transient.push((p >> 32) as u32);
        Ok(p)
    }

    /// Frees every device allocation of the last launch still live.
    pub(crate) fn release_transient(&mut self) {
        for id in std::mem::take(&mut self.transient) {
            let ptr = u64::from(id) << 32;
            let live = self.allocs.get(id as usize).is_some_and(|a| a.live);
            if live && !matches!(self.allocs[id as usize].origin, Origin::Host) {
                let _ = self.free_device(ptr);
            }
        }
    }

    /// Frees a host buffer.
    pub fn free(&mut self, ptr: u64) -> Result<(), InterpError> {
        self.free_device(ptr).map_err(|f| InterpError::Host {
            message: self.describe(&f, None),
        })
    }

    /// Frees an allocation; `ptr` must be its start.
    pub(crate) fn free_device(&mut self, ptr: u64) -> Result<(), MemFault> {
        // An empty access at `ptr` faults as a free must (null, wild, freed,
        // past the end); a free must also start the allocation.
        let (id, off) = self.check(Access::Free, ptr, 0)?;
        if off != 0 {
            return Err(MemFault {
                access: Access::Free,
                ptr,
                len: 0,
                kind: FaultKind::OutOfBounds,
            });
        }
        let a = &mut self.allocs[id];
        a.live = false;
        a.data = Vec::new();
        self.quarantine.push_back(id as u32);
        Ok(())
    }

    fn check(&self, access: Access, ptr: u64, len: u64) -> Result<(usize, usize), MemFault> {
        let (id, off) = split(ptr);
        let fault = |kind| MemFault {
            access,
            ptr,
            len,
            kind,
        };
        if ptr == 0 {
            return Err(fault(FaultKind::Null));
        }
        let Some(a) = self.allocs.get(id) else {
            return Err(fault(FaultKind::Wild));
        };
        if !a.live {
            return Err(fault(FaultKind::Freed));
        }
        match off.checked_add(len) {
            Some(end) if end <= a.data.len() as u64 => Ok((id, off as usize)),
            _ => Err(fault(FaultKind::OutOfBounds)),
        }
    }

    /// Reads a little-endian scalar of `len` (at most 8) bytes, zero-extended.
    pub(crate) fn load(&self, ptr: u64, len: u64) -> Result<u64, MemFault> {
        let (id, off) = self.check(Access::Load, ptr, len)?;
        let mut buf = [0u8; 8];
        let n = len as usize;
        buf[..n].copy_from_slice(&self.allocs[id].data[off..off + n]);
        Ok(u64::from_le_bytes(buf))
    }

    /// Writes the low `len` (at most 8) bytes of `value`, little-endian.
    pub(crate) fn store(
        &mut self,
        access: Access,
        ptr: u64,
        len: u64,
        value: u64,
    ) -> Result<(), MemFault> {
        let (id, off) = self.check(access, ptr, len)?;
        let a = &mut self.allocs[id];
        if a.space == Space::Constant {
            return Err(MemFault {
                access,
                ptr,
                len,
                kind: FaultKind::ReadOnly,
            });
        }
        let n = len as usize;
        a.data[off..off + n].copy_from_slice(&value.to_le_bytes()[..n]);
        Ok(())
    }

    /// Checks that an atomic access of `len` bytes at `ptr` is allowed.
    pub(crate) fn check_atomic(&self, ptr: u64, len: u64) -> Result<(), MemFault> {
        let (id, _) = self.check(Access::Atomic, ptr, len)?;
        if self.allocs[id].space == Space::Constant {
            return Err(MemFault {
                access: Access::Atomic,
                ptr,
                len,
                kind: FaultKind::ReadOnly,
            });
        }
        Ok(())
    }

    /// Reads `len` bytes.
    pub(crate) fn read_bytes(
        &self,
        access: Access,
        ptr: u64,
        len: u64,
    ) -> Result<Vec<u8>, MemFault> {
        let (id, off) = self.check(access, ptr, len)?;
        Ok(self.allocs[id].data[off..off + len as usize].to_vec())
    }

    /// Writes `bytes`; device writes to constant memory fault.
    pub(crate) fn write_bytes(
        &mut self,
        access: Access,
        ptr: u64,
        bytes: &[u8],
        device: bool,
    ) -> Result<(), MemFault> {
        let len = bytes.len() as u64;
        let (id, off) = self.check(access, ptr, len)?;
        let a = &mut self.allocs[id];
        if device && a.space == Space::Constant {
            return Err(MemFault {
                access,
                ptr,
                len,
                kind: FaultKind::ReadOnly,
            });
        }
        a.data[off..off + bytes.len()].copy_from_slice(bytes);
        Ok(())
    }

    /// Reads a NUL-terminated string (without the NUL), at most `max` bytes.
    pub(crate) fn read_cstr(&self, ptr: u64, max: Option<usize>) -> Result<Vec<u8>, MemFault> {
        let (id, off) = self.check(Access::String, ptr, 1)?;
        let data = &self.allocs[id].data[off..];
        let limit = max.unwrap_or(usize::MAX);
        match data.iter().take(limit).position(|&b| b == 0) {
            Some(n) => Ok(data[..n].to_vec()),
            None if data.len() >= limit => Ok(data[..limit].to_vec()),
            None => Err(MemFault {
                access: Access::String,
                ptr,
                len: data.len() as u64 + 1,
                kind: FaultKind::OutOfBounds,
            }),
        }
    }

    /// Copies `bytes` to `ptr` (host side; may write constant memory).
    pub fn write(&mut self, ptr: u64, bytes: &[u8]) -> Result<(), InterpError> {
        self.write_bytes(Access::Store, ptr, bytes, false)
            .map_err(|f| InterpError::Host {
                message: self.describe(&f, None),
            })
    }

    /// Copies `len` bytes from `ptr` (host side).
    pub fn read(&self, ptr: u64, len: u64) -> Result<Vec<u8>, InterpError> {
        self.read_bytes(Access::Load, ptr, len)
            .map_err(|f| InterpError::Host {
                message: self.describe(&f, None),
            })
    }

    typed_access! {
        u8, write_u8s, read_u8s;
        i32, write_i32s, read_i32s;
        u32, write_u32s, read_u32s;
        i64, write_i64s, read_i64s;
        u64, write_u64s, read_u64s;
        f32, write_f32s, read_f32s;
        f64, write_f64s, read_f64s;
    }

    /// True if every pointer points into a live buffer the host allocated
    /// ([`Origin::Host`], global space), no two into the same one: the
    /// semantics of `alloc.distinct`.
    pub fn distinct_host_buffers(&self, ptrs: &[u64]) -> bool {
        let mut seen = Vec::with_capacity(ptrs.len());
        for &p in ptrs {
            let (id, _) = split(p);
            let host = self.allocs.get(id).is_some_and(|a| {
                id != 0 && a.live && a.space == Space::Global && matches!(a.origin, Origin::Host)
            });
            if !host || seen.contains(&id) {
                return false;
            }
            seen.push(id);
        }
        true
    }

    /// The size of the allocation `ptr` points into, if it is live.
    pub fn size_of_alloc(&self, ptr: u64) -> Option<u64> {
        let (id, _) = split(ptr);
        self.allocs
            .get(id)
            .filter(|a| a.live && id != 0)
            .map(|a| a.data.len() as u64)
    }

    /// The contents of every live allocation, by allocation id: what a
    /// differential test compares after running a kernel two ways.
    pub fn live_contents(&self) -> Vec<(usize, &[u8])> {
        self.allocs
            .iter()
            .enumerate()
            .filter(|(_, a)| a.live)
            .map(|(i, a)| (i, a.data.as_slice()))
            .collect()
    }

    /// Number of live allocations (for leak checks in tests).
    pub fn live_count(&self) -> usize {
        self.allocs.iter().filter(|a| a.live).count()
    }

    /// A sentence describing a fault: the access, the offset and the
    /// allocation it hit (space, size, what it is).
    pub fn describe(&self, f: &MemFault, module: Option<&Module>) -> String {
        let (id, off) = split(f.ptr);
        let access = if f.access == Access::Free {
            format!("free of pointer {:#x}", f.ptr)
        } else {
            format!("{} of {} bytes at {:#x}", f.access.name(), f.len, f.ptr)
        };
        let what = |a: &Allocation| {
            let origin = match a.origin {
                Origin::Host => "host buffer".to_string(),
                Origin::Global(g) | Origin::SharedGlobal(g) => match module {
                    Some(m) if m.globals.contains(g) => format!("global @{}", m.globals[g].name),
                    _ => format!("global #{}", g.index()),
                },
                Origin::DynamicShared => "dynamic shared memory".to_string(),
                Origin::Alloca(func, op) => match module {
                    Some(m) if m.functions.contains(func) => {
                        let fun = &m.functions[func];
                        let loc = fun
                            .ops
                            .try_get(op)
                            .map(|o| m.describe_loc(o.loc))
                            .unwrap_or_default();
                        format!("alloca at {loc} in `{}`", fun.name)
                    }
                    _ => "alloca".to_string(),
                },
                Origin::Byval(i) => format!("by-value parameter {i}"),
            };
            format!(
                "{} allocation of {} bytes ({origin})",
                a.space,
                a.data.len()
            )
        };
        match f.kind {
            FaultKind::Null => format!("{access}: null pointer"),
            FaultKind::Wild => format!("{access}: pointer into no allocation"),
            FaultKind::TooLarge => format!("allocation of {} bytes is too large", f.len),
            FaultKind::Freed => format!(
                "{access}: use of freed {}",
                self.allocs
                    .get(id)
                    .map(|a| format!("{} allocation ({:?})", a.space, a.origin))
                    .unwrap_or_default()
            ),
            FaultKind::OutOfBounds => match self.allocs.get(id) {
                Some(a) => format!("{access}: offset {off} is out of bounds of {}", what(a)),
                None => format!("{access}: out of bounds"),
            },
            FaultKind::ReadOnly => match self.allocs.get(id) {
                Some(a) => format!("{access}: write to read-only {}", what(a)),
                None => format!("{access}: write to read-only memory"),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_null_and_free() {
        let mut m = Memory::new();
        let p = m.alloc(Space::Global, 8);
        m.write_i32s(p, &[1, -2]).unwrap();
        assert_eq!(m.read_i32s(p, 2).unwrap(), vec![1, -2]);
        assert_eq!(m.load(p + 4, 4).unwrap(), 0xffff_fffe);
        assert_eq!(m.load(p + 5, 4).unwrap_err().kind, FaultKind::OutOfBounds);
        assert_eq!(m.load(0, 4).unwrap_err().kind, FaultKind::Null);
        assert_eq!(m.load(7 << 32, 4).unwrap_err().kind, FaultKind::Wild);
        m.free(p).unwrap();
        assert_eq!(m.load(p, 4).unwrap_err().kind, FaultKind::Freed);
        assert!(m.free(p).is_err());
        let msg = m.read(p, 4).unwrap_err().to_string();
        assert!(msg.contains("freed"), "{msg}");
    }

    #[test]
    fn constant_memory_is_read_only_for_the_device() {
        let mut m = Memory::new();
        let p = m
            .try_alloc(Space::Constant, 4, Origin::Global(GlobalId::new(0)))
            .unwrap();
        m.write_u32s(p, &[5]).unwrap();
        let f = m.store(Access::Store, p, 4, 1).unwrap_err();
        assert_eq!(f.kind, FaultKind::ReadOnly);
        assert!(m
            .describe(&f, None)
            .contains("read-only constant allocation of 4 bytes"));
    }

    #[test]
    fn cstrings() {
        let mut m = Memory::new();
        let p = m.alloc(Space::Global, 6);
        m.write(p, b"hi\0xyz"[..6].as_ref()).unwrap();
        assert_eq!(m.read_cstr(p, None).unwrap(), b"hi");
        assert_eq!(m.read_cstr(p + 3, Some(2)).unwrap(), b"xy");
        assert!(m.read_cstr(p + 3, None).is_err());
    }
}
