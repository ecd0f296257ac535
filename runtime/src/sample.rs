//! Texture sampling: what one `tex1Dfetch`/`tex1D`/`tex2D`/`tex3D` returns
//! for a texture descriptor. Pure arithmetic on the descriptor and its
//! memory, shared by the launch-time fetch entry (`cucc_tex_api.fetch`) and
//! by test resolvers of the IR interpreter, so both give the same bits.
//!
//! The rules (`docs/runtime.md` states them for readers):
//!
//! - **Coordinates.** `fetch1d` takes an integer texel index. The float
//!   kinds take `x, y, z`; with normalized coordinates an axis of `N` texels
//!   scales the coordinate by `N` first.
//! - **Addressing** happens on texel indices: clamp to `[0, N-1]`; wrap is
//!   `i mod N`; mirror reflects with period `2N`; border reads the border
//!   colour. Wrap and mirror need normalized coordinates (else: clamp), as
//!   in CUDA. Textures on linear memory (`cudaResourceTypeLinear`, what
//!   `cudaBindTexture` makes) return zeros outside `[0, width)` whatever the
//!   address mode, as the hardware does for buffer textures.
//! - **Point** sampling reads texel `floor(u)`. **Linear** filtering reads
//!   `floor(u - 0.5)` and its successor per axis with weight
//!   `a = round(frac(u - 0.5) * 256) / 256` (CUDA's 9-bit fixed-point weight
//!   with 8 fractional bits) and blends in `f32`:
//!   `(1-a)*t0 + a*t1` in x, then the same across y with `b`, then z with
//!   `c`. Only float-valued reads filter; integer element reads point-sample.
//! - **Values.** Float channels (32-bit, or 16-bit half) read as `f32`.
//!   Integer channels read as their integer in element mode, or, in
//!   normalized-float mode (8- and 16-bit only), as `v / 255`, `v / 65535`
//!   (unsigned) or `max(v / 127, -1)`, `max(v / 32767, -1)` (signed).
//!   Missing channels read as 0.
//! - **Results** are written as four elements of the requested kind: an
//!   integer to an integer kind is truncated (sign- or zero-extended from the
//!   channel first); an integer to `f32` converts; a float to an integer kind
//!   converts with saturation (NaN gives 0).

use crate::texture_abi::{TexDesc, ADDRESS_BORDER, ADDRESS_MIRROR, ADDRESS_WRAP, RESOURCE_LINEAR};

/// `cucc_tex_api.fetch` kinds: `tex1Dfetch`.
pub const KIND_FETCH1D: i32 = 0;
/// `tex1D`.
pub const KIND_1D: i32 = 1;
/// `tex2D`.
pub const KIND_2D: i32 = 2;
/// `tex3D`.
pub const KIND_3D: i32 = 3;

/// Result element kinds: `f32`.
pub const OUT_F32: i32 = 0;
/// 32-bit integers.
pub const OUT_B32: i32 = 1;
/// 16-bit integers.
pub const OUT_B16: i32 = 2;
/// 8-bit integers.
pub const OUT_B8: i32 = 3;

/// `cudaChannelFormatKindSigned`.
pub const FORMAT_SIGNED: u8 = 0;
/// `cudaChannelFormatKindUnsigned`.
pub const FORMAT_UNSIGNED: u8 = 1;
/// `cudaChannelFormatKindFloat`.
pub const FORMAT_FLOAT: u8 = 2;

/// One channel value as read.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Texel {
    Int(i64),
    Float(f32),
}

/// Whether reads through `d` produce floats (and so may be filtered).
pub fn float_valued(d: &TexDesc) -> bool {
    d.format == FORMAT_FLOAT || (d.read_normalized != 0 && d.channel_bits <= 16)
}

/// The result kind reads through `d` naturally produce: `f32` for float
/// values, else the integer width of a channel.
pub fn natural_out_kind(d: &TexDesc) -> i32 {
    if float_valued(d) {
        OUT_F32
    } else {
        match d.channel_bits {
            8 => OUT_B8,
            16 => OUT_B16,
            _ => OUT_B32,
        }
    }
}

/// Bytes of one result element of `out_kind`.
pub fn out_size(out_kind: i32) -> usize {
    match out_kind {
        OUT_B16 => 2,
        OUT_B8 => 1,
        _ => 4,
    }
}

fn half_to_f32(h: u16) -> f32 {
    let sign = u32::from(h & 0x8000) << 16;
    let exp = u32::from((h >> 10) & 0x1f);
    let mut man = u32::from(h & 0x3ff);
    let bits = match exp {
        0x1f => sign | 0x7f80_0000 | (man << 13),
        0 if man == 0 => sign,
        0 => {
            let mut e: u32 = 113;
            while man & 0x400 == 0 {
                man <<= 1;
                e -= 1;
            }
            sign | (e << 23) | ((man & 0x3ff) << 13)
        }
        _ => sign | ((exp + 112) << 23) | (man << 13),
    };
    f32::from_bits(bits)
}

/// Reads channel `c` of the texel at `p`.
///
/// # Safety
/// `p` must point to a readable texel of `d`'s format.
unsafe fn read_channel(d: &TexDesc, p: *const u8, c: usize) -> Texel {
    if c >= usize::from(d.channels) {
        return if float_valued(d) {
            Texel::Float(0.0)
        } else {
            Texel::Int(0)
        };
    }
    let bytes = usize::from(d.channel_bits / 8);
    // SAFETY: the caller promises a whole texel at `p`.
    let q = unsafe { p.add(c * bytes) };
    // SAFETY: as above; unaligned reads are allowed.
    let raw: i64 = unsafe {
        match (bytes, d.format) {
            (1, FORMAT_SIGNED) => i64::from(q.cast::<i8>().read_unaligned()),
            (1, _) => i64::from(q.read_unaligned()),
            (2, FORMAT_SIGNED) => i64::from(q.cast::<i16>().read_unaligned()),
            (2, _) => i64::from(q.cast::<u16>().read_unaligned()),
            (_, FORMAT_SIGNED) => i64::from(q.cast::<i32>().read_unaligned()),
            _ => i64::from(q.cast::<u32>().read_unaligned()),
        }
    };
    if d.format == FORMAT_FLOAT {
        return Texel::Float(if bytes == 2 {
            half_to_f32(raw as u16)
        } else {
            f32::from_bits(raw as u32)
        });
    }
    if d.read_normalized != 0 && bytes <= 2 {
        let v = raw as f32;
        let f = match (bytes, d.format) {
            (1, FORMAT_SIGNED) => (v / 127.0).max(-1.0),
            (1, _) => v / 255.0,
            (_, FORMAT_SIGNED) => (v / 32767.0).max(-1.0),
            _ => v / 65535.0,
        };
        return Texel::Float(f);
    }
    Texel::Int(raw)
}

/// The texel index an address mode makes of `i` on an axis of `n` texels;
/// `None` for the border.
fn address(i: i64, n: u64, mode: u8, normalized: bool) -> Option<u64> {
    let n = n.max(1) as i64;
    let mode = if !normalized && (mode == ADDRESS_WRAP || mode == ADDRESS_MIRROR) {
        crate::texture_abi::ADDRESS_CLAMP
    } else {
        mode
    };
    let j = match mode {
        ADDRESS_WRAP => i.rem_euclid(n),
        ADDRESS_MIRROR => {
            let m = i.rem_euclid(2 * n);
            if m >= n {
                2 * n - 1 - m
            } else {
                m
            }
        }
        ADDRESS_BORDER => {
            if i < 0 || i >= n {
                return None;
            }
            i
        }
        _ => i.clamp(0, n - 1),
    };
    Some(j as u64)
}

/// `floor(v)` as an index, saturating (NaN gives 0).
fn floor_index(v: f32) -> i64 {
    v.floor() as i64
}

/// CUDA's 9-bit fixed-point filter weight of `frac` in `[0, 1)`.
pub fn filter_weight(frac: f32) -> f32 {
    (frac * 256.0).round() / 256.0
}

/// The four channels of the texel at indices `idx` (border colour for
/// `None`).
///
/// # Safety
/// `d.data` must cover the texture's extent.
unsafe fn texel(d: &TexDesc, idx: [Option<u64>; 3]) -> [Texel; 4] {
    let (Some(x), Some(y), Some(z)) = (idx[0], idx[1], idx[2]) else {
        return border(d);
    };
    let off = z * d.slice_pitch + y * d.pitch + x * u64::from(d.texel_size);
    // SAFETY: addressed indices lie inside the extent the caller vouches for.
    let p = unsafe { d.data.add(off as usize) };
    // SAFETY: a whole texel lies at `p`.
    unsafe { std::array::from_fn(|c| read_channel(d, p, c)) }
}

fn border(d: &TexDesc) -> [Texel; 4] {
    std::array::from_fn(|c| {
        if float_valued(d) {
            Texel::Float(d.border[c])
        } else {
            Texel::Int(d.border[c] as i64)
        }
    })
}

fn as_f32(t: Texel) -> f32 {
    match t {
        Texel::Float(f) => f,
        Texel::Int(v) => v as f32,
    }
}

fn lerp(a: [Texel; 4], b: [Texel; 4], w: f32) -> [Texel; 4] {
    std::array::from_fn(|c| Texel::Float((1.0 - w) * as_f32(a[c]) + w * as_f32(b[c])))
}

/// Samples `d` and returns four result elements of `out_kind`, packed
/// little-endian (element `i` at byte `i * out_size(out_kind)`).
///
/// # Safety
/// `d.data` must point to memory covering the texture's extent
/// (`depth` slices of `height` rows of `width` texels at the given pitches),
/// unless `d.state` is not [`crate::texture_abi::STATE_READY`].
pub unsafe fn sample(
    d: &TexDesc,
    kind: i32,
    icoord: i32,
    coords: [f32; 3],
    out_kind: i32,
) -> [u8; 16] {
    if d.state != crate::texture_abi::STATE_READY || d.data.is_null() {
        return [0; 16];
    }
    let dims = [d.width, d.height, d.depth];
    let normalized = d.normalized_coords != 0;
    let values = if kind == KIND_FETCH1D {
        let i = i64::from(icoord);
        let idx = if d.resource == RESOURCE_LINEAR {
            if i < 0 || i as u64 >= d.width {
                return [0; 16];
            }
            Some(i as u64)
        } else {
            address(i, d.width, d.address[0], false)
        };
        // SAFETY: forwarded contract.
        unsafe { texel(d, [idx, Some(0), Some(0)]) }
    } else {
        let axes = kind.clamp(KIND_1D, KIND_3D) as usize;
        let u: [f32; 3] = std::array::from_fn(|a| {
            if normalized {
                coords[a] * dims[a] as f32
            } else {
                coords[a]
            }
        });
        let linear = d.filter != 0 && float_valued(d);
        if d.resource == RESOURCE_LINEAR && !linear {
            // Buffer textures: zero outside the buffer.
            let i = floor_index(u[0]);
            if i < 0 || i as u64 >= d.width {
                return [0; 16];
            }
        }
        if linear {
            let mut base = [0i64; 3];
            let mut w = [0f32; 3];
            for a in 0..axes {
                let b = u[a] - 0.5;
                let f = b.floor();
                base[a] = floor_index(b);
                w[a] = filter_weight(b - f);
            }
            let at = |dx: i64, dy: i64, dz: i64| -> [Option<u64>; 3] {
                let off = [dx, dy, dz];
                std::array::from_fn(|a| {
                    if a < axes {
                        address(
                            base[a].saturating_add(off[a]),
                            dims[a],
                            d.address[a],
                            normalized,
                        )
                    } else {
                        Some(0)
                    }
                })
            };
            // SAFETY (all texel calls): forwarded contract.
            let row = |dy: i64, dz: i64| unsafe {
                lerp(texel(d, at(0, dy, dz)), texel(d, at(1, dy, dz)), w[0])
            };
            let plane = |dz: i64| {
                let r0 = row(0, dz);
                if axes >= 2 {
                    lerp(r0, row(1, dz), w[1])
                } else {
                    r0
                }
            };
            let p0 = plane(0);
            if axes >= 3 {
                lerp(p0, plane(1), w[2])
            } else {
                p0
            }
        } else {
            let idx: [Option<u64>; 3] = std::array::from_fn(|a| {
                if a < axes {
                    address(floor_index(u[a]), dims[a], d.address[a], normalized)
                } else {
                    Some(0)
                }
            });
            // SAFETY: forwarded contract.
            unsafe { texel(d, idx) }
        }
    };
    pack(values, out_kind)
}

fn pack(values: [Texel; 4], out_kind: i32) -> [u8; 16] {
    let mut out = [0u8; 16];
    let size = out_size(out_kind);
    for (c, v) in values.iter().enumerate() {
        let bytes: [u8; 4] = match (*v, out_kind) {
            (Texel::Float(f), OUT_F32) => f.to_bits().to_le_bytes(),
            (Texel::Int(i), OUT_F32) => (i as f32).to_bits().to_le_bytes(),
            (Texel::Int(i), _) => (i as u32).to_le_bytes(),
            (Texel::Float(f), OUT_B32) => (f as i32 as u32).to_le_bytes(),
            (Texel::Float(f), OUT_B16) => (i32::from(f as i16) as u32).to_le_bytes(),
            (Texel::Float(f), _) => (i32::from(f as i8) as u32).to_le_bytes(),
        };
        out[c * size..(c + 1) * size].copy_from_slice(&bytes[..size]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::texture_abi::{ADDRESS_CLAMP, RESOURCE_ARRAY, STATE_READY};

    fn desc(data: &[u8], width: u64, height: u64, bits: u8, channels: u8, format: u8) -> TexDesc {
        let texel = u32::from(bits / 8) * u32::from(channels);
        TexDesc {
            data: data.as_ptr(),
            width,
            height,
            depth: 1,
            pitch: width * u64::from(texel),
            slice_pitch: width * height * u64::from(texel),
            texel_size: texel,
            state: STATE_READY,
            raw_kind: 0xff,
            channels,
            channel_bits: bits,
            format,
            read_normalized: 0,
            filter: 0,
            normalized_coords: 0,
            address: [ADDRESS_CLAMP; 3],
            resource: RESOURCE_ARRAY,
            border: [0.0; 4],
        }
    }

    fn f32s(v: &[f32]) -> Vec<u8> {
        v.iter().flat_map(|f| f.to_le_bytes()).collect()
    }

    fn first_f32(out: [u8; 16]) -> f32 {
        f32::from_le_bytes([out[0], out[1], out[2], out[3]])
    }

    #[test]
    fn point_sampling_clamps_and_wraps() {
        let data = f32s(&[10.0, 20.0, 30.0, 40.0]);
        let mut d = desc(&data, 4, 1, 32, 1, FORMAT_FLOAT);
        // SAFETY: `data` covers the texture.
        let s = |d: &TexDesc, x: f32| {
            first_f32(unsafe { sample(d, KIND_1D, 0, [x, 0.0, 0.0], OUT_F32) })
        };
        assert_eq!(s(&d, 1.5), 20.0);
        assert_eq!(s(&d, -3.0), 10.0);
        assert_eq!(s(&d, 9.0), 40.0);
        d.normalized_coords = 1;
        d.address[0] = ADDRESS_WRAP;
        assert_eq!(s(&d, 1.25), 20.0);
        assert_eq!(s(&d, -0.25), 40.0);
        d.address[0] = ADDRESS_MIRROR;
        assert_eq!(s(&d, 1.125), 40.0);
        d.address[0] = ADDRESS_BORDER;
        d.border = [7.0; 4];
        assert_eq!(s(&d, 1.5), 7.0);
    }

    #[test]
    fn linear_filtering_uses_nine_bit_weights() {
        let data = f32s(&[0.0, 1.0]);
        let mut d = desc(&data, 2, 1, 32, 1, FORMAT_FLOAT);
        d.filter = 1;
        // x = 0.5 + 1/3: weight 1/3 rounds to 85/256.
        // SAFETY: `data` covers the texture.
        let v = first_f32(unsafe { sample(&d, KIND_1D, 0, [0.5 + 1.0 / 3.0, 0.0, 0.0], OUT_F32) });
        assert_eq!(v, 85.0 / 256.0);
        // Clamped at the edges.
        // SAFETY: as above.
        let v = first_f32(unsafe { sample(&d, KIND_1D, 0, [5.0, 0.0, 0.0], OUT_F32) });
        assert_eq!(v, 1.0);
    }

    #[test]
    fn bilinear_blend() {
        let data = f32s(&[0.0, 1.0, 2.0, 3.0]);
        let mut d = desc(&data, 2, 2, 32, 1, FORMAT_FLOAT);
        d.filter = 1;
        // SAFETY: `data` covers the texture.
        let v = first_f32(unsafe { sample(&d, KIND_2D, 0, [1.0, 1.0, 0.0], OUT_F32) });
        assert_eq!(v, 1.5);
    }

    #[test]
    fn normalized_reads_and_integer_results() {
        let data = [255u8, 0, 128, 1];
        let mut d = desc(&data, 1, 1, 8, 4, FORMAT_UNSIGNED);
        // SAFETY: `data` covers the texture.
        let raw = unsafe { sample(&d, KIND_FETCH1D, 0, [0.0, 0.0, 0.0], OUT_B8) };
        assert_eq!(&raw[..4], &[255, 0, 128, 1]);
        d.read_normalized = 1;
        // SAFETY: as above.
        let n = unsafe { sample(&d, KIND_FETCH1D, 0, [0.0, 0.0, 0.0], OUT_F32) };
        assert_eq!(first_f32(n), 1.0);
        let signed = [0x80u8];
        let mut s = desc(&signed, 1, 1, 8, 1, FORMAT_SIGNED);
        s.read_normalized = 1;
        // SAFETY: as above.
        assert_eq!(
            first_f32(unsafe { sample(&s, KIND_FETCH1D, 0, [0.0, 0.0, 0.0], OUT_F32) }),
            -1.0
        );
        s.read_normalized = 0;
        // SAFETY: as above.
        let w = unsafe { sample(&s, KIND_FETCH1D, 0, [0.0, 0.0, 0.0], OUT_B32) };
        assert_eq!(i32::from_le_bytes([w[0], w[1], w[2], w[3]]), -128);
    }

    #[test]
    fn linear_memory_is_zero_outside() {
        let data = f32s(&[5.0, 6.0]);
        let mut d = desc(&data, 2, 1, 32, 1, FORMAT_FLOAT);
        d.resource = RESOURCE_LINEAR;
        // SAFETY: `data` covers the texture.
        let at = |i| first_f32(unsafe { sample(&d, KIND_FETCH1D, i, [0.0, 0.0, 0.0], OUT_F32) });
        assert_eq!(at(1), 6.0);
        assert_eq!(at(2), 0.0);
        assert_eq!(at(-1), 0.0);
    }

    #[test]
    fn half_channels_read_as_float() {
        assert_eq!(half_to_f32(0x3c00), 1.0);
        assert_eq!(half_to_f32(0xc000), -2.0);
        assert_eq!(half_to_f32(0x0001), 2f32.powi(-24));
    }
}
