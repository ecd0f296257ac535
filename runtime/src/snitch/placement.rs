//! Where a launch's buffers go in the TCDM, and what that says about
//! aliasing.
//!
//! Memory stays host memory; the device copies each kernel's buffers into
//! its simulated TCDM before the run and the changed bytes back after. A
//! pointer argument's buffer extends from the pointer to the end of its
//! allocation (the runtime's table knows it). Arguments pointing into the
//! same allocation share one copy, from the lowest of their pointers on, so
//! a kernel sees their overlap as it would on the host; such arguments
//! may alias and are not marked `noalias`. Each other argument has a copy
//! of its own, disjoint from all others in the TCDM: it cannot alias them,
//! so it is compiled as `noalias` (which lets the compiler stream it).

use std::fmt::Write;

/// A pointer argument: its position and value, and the allocation holding
/// it (start, size), if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PtrArg {
    /// Parameter position.
    pub param: usize,
    /// The pointer.
    pub ptr: usize,
    /// `(start, size)` of the allocation containing `ptr`; `None` for NULL.
    pub alloc: Option<(usize, usize)>,
}

/// One host range copied into the TCDM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    /// First host byte.
    pub host: usize,
    /// Bytes.
    pub len: usize,
    /// Its TCDM address.
    pub tcdm: u32,
}

/// A launch's TCDM layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The copies, in address order.
    pub regions: Vec<Region>,
    /// Each pointer argument's TCDM address (0 for NULL), by `PtrArg` order.
    pub addrs: Vec<u32>,
    /// Whether each pointer argument is alone in its region (`noalias`).
    pub noalias: Vec<bool>,
    /// Bytes the regions take, alignment included.
    pub data_bytes: usize,
}

/// The TCDM's fixed reservations besides the buffers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reserve {
    /// Shared memory for every core's block (static + dynamic, times the
    /// cores that run blocks).
    pub shared: usize,
    /// The cores' stacks at the top.
    pub stacks: usize,
}

/// Why a launch cannot be placed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlaceError {
    /// The data does not fit: what was needed (a message naming the sizes).
    TooBig(String),
    /// A pointer argument is not in device memory the runtime knows.
    Unknown {
        /// Parameter position.
        param: usize,
        /// The pointer.
        ptr: usize,
    },
}

/// Lays out `args` from TCDM address `base` in `size` bytes, keeping
/// `reserve` free, or says why it cannot.
pub fn place(
    args: &[PtrArg],
    base: u32,
    size: usize,
    reserve: Reserve,
) -> Result<Placement, PlaceError> {
    // One group per allocation: the lowest pointer into it and its end.
    let mut groups: Vec<(usize, usize, usize)> = Vec::new(); // (alloc start, from, end)
    for a in args {
        if a.ptr == 0 {
            continue;
        }
        let Some((start, len)) = a.alloc else {
            return Err(PlaceError::Unknown {
                param: a.param,
                ptr: a.ptr,
            });
        };
        let end = start + len;
        match groups.iter_mut().find(|g| g.0 == start) {
            Some(g) => g.1 = g.1.min(a.ptr),
            None => groups.push((start, a.ptr, end)),
        }
    }
    groups.sort_unstable();
    let mut regions = Vec::new();
    let mut offset = 0usize;
    for &(_, from, end) in &groups {
        // The copy keeps the pointer's alignment modulo 8 (the compiler
        // wants 8-byte-aligned element pointers; the host's are).
        offset = offset.next_multiple_of(8) + from % 8;
        regions.push(Region {
            host: from,
            len: end - from,
            tcdm: base.wrapping_add(offset as u32),
        });
        offset += end - from;
    }
    let data_bytes = offset.next_multiple_of(8);
    let needed = data_bytes + reserve.shared + reserve.stacks;
    if needed > size {
        let mut msg =
            format!("needs {needed} bytes of its {size}-byte TCDM: {data_bytes} of buffers");
        for a in args.iter().filter(|a| a.ptr != 0) {
            let end = a.alloc.map_or(a.ptr, |(s, l)| s + l);
            let _ = write!(msg, " (argument {}: {} bytes)", a.param, end - a.ptr);
        }
        let _ = write!(
            msg,
            ", {} of shared memory (every core's blocks; with the per-thread arrays that carry values across barriers once compiled), {} of core stacks",
            reserve.shared, reserve.stacks
        );
        return Err(PlaceError::TooBig(msg));
    }
    let mut addrs = Vec::new();
    let mut noalias = Vec::new();
    for a in args {
        if a.ptr == 0 {
            addrs.push(0);
            noalias.push(true);
            continue;
        }
        let start = a.alloc.map_or(0, |(s, _)| s);
        let g = groups.iter().position(|g| g.0 == start).unwrap_or(0);
        let r = regions[g];
        addrs.push(r.tcdm.wrapping_add((a.ptr - r.host) as u32));
        let sharing = args
            .iter()
            .filter(|b| b.ptr != 0 && b.alloc.map(|(s, _)| s) == Some(start))
            .count();
        noalias.push(sharing == 1);
    }
    Ok(Placement {
        regions,
        addrs,
        noalias,
        data_bytes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: u32 = 0x1000_0000;
    const NONE: Reserve = Reserve {
        shared: 0,
        stacks: 512,
    };

    fn arg(param: usize, ptr: usize, alloc: (usize, usize)) -> PtrArg {
        PtrArg {
            param,
            ptr,
            alloc: Some(alloc),
        }
    }

    #[test]
    fn distinct_allocations_get_disjoint_copies_and_noalias() {
        let a = arg(0, 0x10000, (0x10000, 800));
        let b = arg(1, 0x20000, (0x20000, 800));
        let c = arg(2, 0x30000, (0x30000, 800));
        let p = place(&[c, a, b], BASE, 128 * 1024, NONE).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(p.regions.len(), 3);
        assert_eq!(p.addrs, vec![BASE + 1600, BASE, BASE + 800]);
        assert_eq!(p.noalias, vec![true, true, true]);
        assert_eq!(p.data_bytes, 2400);
        for w in p.regions.windows(2) {
            assert!(w[0].tcdm + w[0].len as u32 <= w[1].tcdm);
        }
    }

    #[test]
    fn extent_runs_from_the_pointer_to_the_allocation_end() {
        let a = arg(0, 0x10000 + 256, (0x10000, 1024));
        let p = place(&[a], BASE, 128 * 1024, NONE).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(
            p.regions,
            vec![Region {
                host: 0x10100,
                len: 768,
                tcdm: BASE
            }]
        );
    }

    #[test]
    fn same_pointer_twice_or_one_allocation_shares_a_copy_without_noalias() {
        let a = arg(0, 0x10000, (0x10000, 1024));
        let b = arg(1, 0x10000, (0x10000, 1024));
        let c = arg(2, 0x10000 + 512, (0x10000, 1024));
        let d = arg(3, 0x40000, (0x40000, 64));
        let p = place(&[a, b, c, d], BASE, 128 * 1024, NONE).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(p.regions.len(), 2);
        assert_eq!(p.addrs[0], p.addrs[1]);
        assert_eq!(p.addrs[2], p.addrs[0] + 512);
        assert_eq!(p.noalias, vec![false, false, false, true]);
    }

    #[test]
    fn misaligned_pointers_keep_their_alignment() {
        let a = arg(0, 0x10004, (0x10000, 100));
        let b = arg(1, 0x20000, (0x20000, 8));
        let p = place(&[a, b], BASE, 128 * 1024, NONE).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(p.addrs[0] % 8, 4);
        assert_eq!(p.addrs[1] % 8, 0);
    }

    #[test]
    fn data_that_does_not_fit_is_rejected_with_the_sizes() {
        let a = arg(0, 0x100000, (0x100000, 100 * 1024));
        let b = arg(1, 0x200000, (0x200000, 28 * 1024));
        let e = place(&[a, b], BASE, 128 * 1024, NONE).err();
        let Some(PlaceError::TooBig(msg)) = e else {
            panic!("{e:?}")
        };
        assert!(
            msg.contains("needs 131584 bytes of its 131072-byte TCDM"),
            "{msg}"
        );
        assert!(msg.contains("argument 0: 102400 bytes"), "{msg}");
        assert!(msg.contains("512 of core stacks"), "{msg}");
        // Exactly full fits.
        let b = arg(1, 0x200000, (0x200000, 28 * 1024 - 512));
        assert!(place(&[a, b], BASE, 128 * 1024, NONE).is_ok());
        // Shared memory counts.
        let r = Reserve {
            shared: 8,
            stacks: 512,
        };
        assert!(place(&[a, b], BASE, 128 * 1024, r).is_err());
    }

    #[test]
    fn null_pointers_pass_as_zero_and_unknown_ones_are_errors() {
        let n = PtrArg {
            param: 0,
            ptr: 0,
            alloc: None,
        };
        let p = place(&[n], BASE, 1024, NONE).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(p.addrs, vec![0]);
        assert!(p.regions.is_empty());
        let u = PtrArg {
            param: 2,
            ptr: 0x1234,
            alloc: None,
        };
        assert_eq!(
            place(&[u], BASE, 1024, NONE),
            Err(PlaceError::Unknown {
                param: 2,
                ptr: 0x1234
            })
        );
    }
}
