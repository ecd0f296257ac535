//! Device memory as the memory units' element streams: each buffer the
//! graph streams is read as elements of the type the graph gives it, and
//! the elements the kernel changed are written back.

use std::collections::BTreeMap;

use cucc_racer::graph::{Scalar, Ty};
use cucc_racer::launch::Prepared;

use super::ParamKind;
use crate::sim_device::copy_back_changes;

/// A buffer argument bound to device memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bound {
    /// The kernel parameter.
    pub param: usize,
    /// The pointer the host passed.
    pub host: usize,
    /// Bytes from it to the end of its allocation, whole elements.
    pub len: usize,
    /// The element type.
    pub ty: Ty,
}

/// Why the buffers cannot be bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BindError {
    /// A pointer the allocation table does not hold.
    Unknown {
        /// The parameter.
        param: usize,
        /// Its value.
        ptr: usize,
    },
    /// The graph uses a buffer with two types, or through a non-pointer.
    Types(String),
}

/// Bytes of one element of `ty` in memory.
pub fn element_size(ty: Ty) -> usize {
    match ty {
        Ty::I1 => 1,
        Ty::I32 => 4,
        Ty::I64 | Ty::F64 => 8,
    }
}

/// Binds every buffer `p`'s graph streams to the allocation its pointer
/// is in: the memory unit may read up to the allocation's end.
pub fn bind(p: &Prepared, kinds: &[ParamKind], values: &[u64]) -> Result<Vec<Bound>, BindError> {
    let types = cucc_racer::launch::buffer_types(&p.lowered).map_err(BindError::Types)?;
    let mut out = Vec::new();
    for (param, ty) in types {
        if kinds.get(param) != Some(&ParamKind::Buffer) {
            return Err(BindError::Types(format!(
                "parameter {param} is streamed but is not a pointer"
            )));
        }
        let ptr = values.get(param).copied().unwrap_or(0) as usize;
        let (start, alloc) =
            crate::alloc_table::find(ptr).ok_or(BindError::Unknown { param, ptr })?;
        let avail = (start + alloc.size).saturating_sub(ptr);
        let size = element_size(ty);
        out.push(Bound {
            param,
            host: ptr,
            len: avail / size * size,
            ty,
        });
    }
    Ok(out)
}

/// Decodes little-endian elements.
pub fn decode(bytes: &[u8], ty: Ty) -> Vec<Scalar> {
    let size = element_size(ty);
    bytes
        .chunks_exact(size)
        .map(|c| {
            let mut b = [0u8; 8];
            b[..size].copy_from_slice(c);
            let raw = u64::from_le_bytes(b);
            match ty {
                Ty::I1 => Scalar::Int(i64::from(raw != 0)),
                Ty::I32 => Scalar::Int(i64::from(raw as u32 as i32)),
                Ty::I64 => Scalar::Int(raw as i64),
                Ty::F64 => Scalar::F64(f64::from_bits(raw)),
            }
        })
        .collect()
}

/// Encodes elements as `decode` reads them.
pub fn encode(values: &[Scalar], ty: Ty) -> Vec<u8> {
    let size = element_size(ty);
    let mut out = Vec::with_capacity(values.len() * size);
    for v in values {
        let raw: u64 = match (ty, *v) {
            (Ty::F64, Scalar::F64(x)) => x.to_bits(),
            (Ty::F64, Scalar::Int(i)) => (i as f64).to_bits(),
            (_, Scalar::Int(i)) => i as u64,
            (_, Scalar::F64(x)) => x as i64 as u64,
        };
        out.extend_from_slice(&raw.to_le_bytes()[..size]);
    }
    out
}

/// The bound buffers' elements by parameter, and their bytes as read.
///
/// # Safety
/// Each `host .. host + len` must be readable.
pub unsafe fn read(bound: &[Bound]) -> (BTreeMap<usize, Vec<Scalar>>, Vec<Vec<u8>>) {
    let mut values = BTreeMap::new();
    let mut before = Vec::with_capacity(bound.len());
    for b in bound {
        // SAFETY: the caller's contract.
        let bytes = unsafe { std::slice::from_raw_parts(b.host as *const u8, b.len) }.to_vec();
        values.insert(b.param, decode(&bytes, b.ty));
        before.push(bytes);
    }
    (values, before)
}

/// Writes back the bytes of `values` that differ from `before`.
///
/// # Safety
/// Each `host .. host + len` must be writable.
pub unsafe fn write_back(
    bound: &[Bound],
    values: &BTreeMap<usize, Vec<Scalar>>,
    before: &[Vec<u8>],
) -> Result<(), String> {
    for (b, old) in bound.iter().zip(before) {
        let v = values
            .get(&b.param)
            .ok_or(format!("parameter {} lost its buffer", b.param))?;
        let new = encode(v, b.ty);
        if new.len() != old.len() {
            return Err(format!("parameter {} changed size", b.param));
        }
        // SAFETY: the caller's contract.
        unsafe { copy_back_changes(b.host, old, &new) };
    }
    Ok(())
}
