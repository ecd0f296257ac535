//! CUDA arrays, texture objects and legacy texture references through the
//! exported API, the per-launch texture view kernels read, and an IR
//! interpreter resolver built on the same sampling rules.

mod common;

use std::ffi::c_void;

use common::*;
use cucc_runtime::array::*;
use cucc_runtime::ffi::*;
use cucc_runtime::memory::{cudaFree, cudaMalloc, cudaMemcpy};
use cucc_runtime::sample::{self, sample, KIND_FETCH1D, OUT_F32};
use cucc_runtime::texture::*;
use cucc_runtime::texture_abi::*;

const H2D: i32 = MEMCPY_HOST_TO_DEVICE;
const D2H: i32 = MEMCPY_DEVICE_TO_HOST;

const INVALID_VALUE: i32 = 1;
const INVALID_PITCH: i32 = 12;
const INVALID_TEXTURE: i32 = 18;
const INVALID_BINDING: i32 = 19;
const INVALID_CHANNEL: i32 = 20;
const INVALID_DIRECTION: i32 = 21;
const INVALID_HANDLE: i32 = 400;

fn float_desc(channels: i32) -> cudaChannelFormatDesc {
    let b = |c| if c < channels { 32 } else { 0 };
    cudaCreateChannelDesc(b(0), b(1), b(2), b(3), 2)
}

fn dmalloc(bytes: usize) -> *mut c_void {
    let mut p = std::ptr::null_mut();
    // SAFETY: valid out-pointer.
    assert_eq!(unsafe { cudaMalloc(&mut p, bytes) }, 0);
    p
}

fn new_array(desc: &cudaChannelFormatDesc, w: usize, h: usize) -> *mut c_void {
    let mut a = std::ptr::null_mut();
    // SAFETY: valid pointers.
    assert_eq!(unsafe { cudaMallocArray(&mut a, desc, w, h, 0) }, 0);
    a
}

/// Reads descriptor `handle` of the current texture view.
fn view_desc(handle: u64) -> TexDesc {
    let snap = launch_snapshot().expect("textures exist");
    // SAFETY: the snapshot's api is a valid TexApi while `snap` lives.
    let api = unsafe { &*(snap.api() as *const TexApi) };
    assert!(handle < api.count);
    // SAFETY: in range.
    unsafe { *api.descs.add(handle as usize) }
}

#[test]
fn array_allocation_and_copies() {
    let desc = float_desc(1);
    // SAFETY (all calls): valid pointers or deliberate NULLs.
    unsafe {
        let mut a = std::ptr::null_mut();
        assert_eq!(
            cudaMallocArray(&mut a, std::ptr::null(), 4, 4, 0),
            INVALID_VALUE
        );
        let bad = cudaCreateChannelDesc(32, 8, 0, 0, 2);
        assert_eq!(cudaMallocArray(&mut a, &bad, 4, 4, 0), INVALID_CHANNEL);
        let none = cudaCreateChannelDesc(32, 0, 0, 0, 3);
        assert_eq!(cudaMallocArray(&mut a, &none, 4, 4, 0), INVALID_CHANNEL);
        assert_eq!(cudaMallocArray(&mut a, &desc, 0, 4, 0), INVALID_VALUE);
        assert_eq!(cudaFreeArray(0x1234 as *mut c_void), INVALID_HANDLE);
        assert_eq!(cudaFreeArray(std::ptr::null_mut()), 0);

        let a = new_array(&desc, 5, 3);
        let src: Vec<f32> = (0..15).map(|i| i as f32).collect();
        // 1D-style copy runs on through rows.
        assert_eq!(cudaMemcpyToArray(a, 4, 1, src.as_ptr().cast(), 8, H2D), 0);
        let mut back = [0f32; 2];
        assert_eq!(
            cudaMemcpyFromArray(back.as_mut_ptr().cast(), a, 4, 1, 8, D2H),
            0
        );
        assert_eq!(back, [0.0, 1.0]);
        assert_eq!(
            cudaMemcpyToArray(a, 0, 2, src.as_ptr().cast(), 24, H2D),
            INVALID_VALUE
        );
        assert_eq!(
            cudaMemcpyToArray(a, 0, 0, src.as_ptr().cast(), 4, D2H),
            INVALID_DIRECTION
        );
        // 2D: a 2x2 block at texel (1, 1).
        assert_eq!(
            cudaMemcpy2DToArray(a, 4, 1, src.as_ptr().cast(), 20, 8, 2, H2D),
            0
        );
        let mut block = [0f32; 4];
        assert_eq!(
            cudaMemcpy2DFromArray(block.as_mut_ptr().cast(), 8, a, 4, 1, 8, 2, D2H),
            0
        );
        assert_eq!(block, [0.0, 1.0, 5.0, 6.0]);
        assert_eq!(
            cudaMemcpy2DToArray(a, 16, 0, src.as_ptr().cast(), 20, 8, 1, H2D),
            INVALID_VALUE
        );
        assert_eq!(
            cudaMemcpy2DToArray(a, 0, 0, src.as_ptr().cast(), 4, 8, 1, H2D),
            INVALID_PITCH
        );
        let (mut got, mut ext, mut flags) = (
            cudaChannelFormatDesc::default(),
            cudaExtent {
                width: 0,
                height: 0,
                depth: 0,
            },
            7,
        );
        assert_eq!(cudaArrayGetInfo(&mut got, &mut ext, &mut flags, a), 0);
        assert_eq!(
            (got, ext.width, ext.height, ext.depth, flags),
            (desc, 5, 3, 0, 0)
        );
        assert_eq!(cudaFreeArray(a), 0);
        assert_eq!(cudaFreeArray(a), INVALID_HANDLE);
    }
}

#[test]
fn memcpy_3d_between_array_and_pitched_memory() {
    let desc = float_desc(1);
    let extent = cudaExtent {
        width: 3,
        height: 2,
        depth: 2,
    };
    // SAFETY (all calls): valid pointers.
    unsafe {
        let mut a = std::ptr::null_mut();
        assert_eq!(cudaMalloc3DArray(&mut a, &desc, extent, 0), 0);
        let host: Vec<f32> = (0..12).map(|i| i as f32 * 1.5).collect();
        let mut p = cudaMemcpy3DParms {
            srcArray: std::ptr::null_mut(),
            srcPos: cudaPos::default(),
            srcPtr: cudaPitchedPtr {
                ptr: host.as_ptr() as *mut c_void,
                pitch: 12,
                xsize: 3,
                ysize: 2,
            },
            dstArray: a,
            dstPos: cudaPos::default(),
            dstPtr: cudaPitchedPtr {
                ptr: std::ptr::null_mut(),
                pitch: 0,
                xsize: 0,
                ysize: 0,
            },
            extent,
            kind: H2D,
        };
        assert_eq!(cudaMemcpy3D(&p), 0);
        // Back into device memory with a wider pitch, then to the host.
        let dev = dmalloc(16 * 4);
        let q = cudaMemcpy3DParms {
            srcArray: a,
            srcPos: cudaPos::default(),
            srcPtr: cudaPitchedPtr {
                ptr: std::ptr::null_mut(),
                pitch: 0,
                xsize: 0,
                ysize: 0,
            },
            dstArray: std::ptr::null_mut(),
            dstPos: cudaPos::default(),
            dstPtr: cudaPitchedPtr {
                ptr: dev,
                pitch: 16,
                xsize: 4,
                ysize: 2,
            },
            extent,
            kind: MEMCPY_DEVICE_TO_DEVICE,
        };
        assert_eq!(cudaMemcpy3D(&q), 0);
        let mut back = [0f32; 16];
        assert_eq!(cudaMemcpy(back.as_mut_ptr().cast(), dev, 64, D2H), 0);
        for z in 0..2 {
            for y in 0..2 {
                for x in 0..3 {
                    assert_eq!(back[z * 8 + y * 4 + x], host[z * 6 + y * 3 + x]);
                }
            }
        }
        // Both or neither side set: invalid.
        p.srcArray = a;
        assert_eq!(cudaMemcpy3D(&p), INVALID_VALUE);
        p.extent.depth = 3;
        p.srcArray = std::ptr::null_mut();
        assert_eq!(cudaMemcpy3D(&p), INVALID_VALUE);
        assert_eq!(cudaFree(dev), 0);
        assert_eq!(cudaFreeArray(a), 0);
    }
}

#[test]
fn texture_objects() {
    let n = 64usize;
    let data: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let dev = dmalloc(n * 4);
    // SAFETY: `data` holds the `4 * n` bytes copied.
    assert_eq!(
        unsafe { cudaMemcpy(dev, data.as_ptr().cast(), n * 4, H2D) },
        0
    );
    let mut res = cudaResourceDesc {
        resType: 2,
        res: cudaResourceUnion {
            linear: cudaResourceLinear {
                devPtr: dev,
                desc: float_desc(1),
                sizeInBytes: n * 4,
            },
        },
    };
    let tex = cudaTextureDesc {
        addressMode: [1; 3],
        ..Default::default()
    };
    // SAFETY (all calls): valid pointers or deliberate NULLs.
    unsafe {
        let mut t = 0u64;
        assert_eq!(
            cudaCreateTextureObject(&mut t, &res, std::ptr::null(), std::ptr::null()),
            INVALID_VALUE
        );
        assert_eq!(
            cudaCreateTextureObject(&mut t, &res, &tex, std::ptr::null()),
            0
        );
        assert_ne!(t, 0);
        let d = view_desc(t);
        assert_eq!(
            (d.state, d.width, d.raw_kind, d.resource),
            (STATE_READY, n as u64, 0, RESOURCE_LINEAR)
        );
        let mut out = [0u8; 16];
        cucc_tex_fetch(
            &d,
            KIND_FETCH1D,
            9,
            0.0,
            0.0,
            0.0,
            OUT_F32,
            out.as_mut_ptr().cast(),
        );
        assert_eq!(f32::from_le_bytes([out[0], out[1], out[2], out[3]]), 9.0);

        let mut back: cudaResourceDesc = std::mem::zeroed();
        assert_eq!(cudaGetTextureObjectResourceDesc(&mut back, t), 0);
        assert_eq!(back.resType, 2);
        assert_eq!(back.res.linear.devPtr, dev);
        let mut tback = cudaTextureDesc::default();
        assert_eq!(cudaGetTextureObjectTextureDesc(&mut tback, t), 0);
        assert_eq!(tback, tex);

        // Past the allocation, unknown array, bad modes.
        res.res.linear.sizeInBytes = n * 4 + 4;
        let mut u = 0u64;
        assert_eq!(
            cudaCreateTextureObject(&mut u, &res, &tex, std::ptr::null()),
            INVALID_VALUE
        );
        let arr_res = cudaResourceDesc {
            resType: 0,
            res: cudaResourceUnion {
                array: 0x40 as *mut c_void,
            },
        };
        assert_eq!(
            cudaCreateTextureObject(&mut u, &arr_res, &tex, std::ptr::null()),
            INVALID_HANDLE
        );
        res.res.linear.sizeInBytes = n * 4;
        let bad = cudaTextureDesc {
            addressMode: [7, 1, 1],
            ..tex
        };
        assert_eq!(
            cudaCreateTextureObject(&mut u, &res, &bad, std::ptr::null()),
            INVALID_VALUE
        );

        // Pitch 2D: 4 x 4 texels with a 32-byte pitch over the same buffer.
        let pres = cudaResourceDesc {
            resType: 3,
            res: cudaResourceUnion {
                pitch2D: cudaResourcePitch2D {
                    devPtr: dev,
                    desc: float_desc(1),
                    width: 4,
                    height: 4,
                    pitchInBytes: 32,
                },
            },
        };
        let mut p = 0u64;
        assert_eq!(
            cudaCreateTextureObject(&mut p, &pres, &tex, std::ptr::null()),
            0
        );
        let d = view_desc(p);
        // SAFETY: the descriptor covers `dev`.
        let o = sample(&d, sample::KIND_2D, 0, [2.5, 3.5, 0.0], OUT_F32);
        assert_eq!(f32::from_le_bytes([o[0], o[1], o[2], o[3]]), 26.0);

        assert_eq!(cudaDestroyTextureObject(t), 0);
        assert_eq!(cudaDestroyTextureObject(t), INVALID_VALUE);
        assert_eq!(cudaDestroyTextureObject(p), 0);
    }
    assert_eq!(cudaFree(dev), 0);
}

#[test]
fn legacy_references_bind_and_follow_the_host_variable() {
    let id = [0x7e; 16];
    let handle = register_fatbin(blob(id));
    let host: &'static mut textureReference = Box::leak(Box::new(textureReference {
        normalized: 0,
        filterMode: 0,
        addressMode: [1; 3],
        channelDesc: cudaChannelFormatDesc::default(),
        sRGB: 0,
        maxAnisotropy: 0,
        mipmapFilterMode: 0,
        mipmapLevelBias: 0.0,
        minMipmapLevelClamp: 0.0,
        maxMipmapLevelClamp: 0.0,
        disableTrilinearOptimization: 0,
        __cudaReserved: [0; 14],
    }));
    let host_ptr = host as *mut textureReference;
    let name = cstr("texLegacy");
    let mut slot = 0u64;
    let refs = [TexRefInfo {
        device_name: name,
        handle: &mut slot,
    }];
    // SAFETY (all calls): valid pointers, strings and tables.
    unsafe {
        // Device side first, then host side: the same slot.
        __cucc_register_textures(id.as_ptr(), refs.as_ptr(), 1);
        assert_ne!(slot, 0);
        __cudaRegisterTexture(
            handle,
            host_ptr as *const c_void,
            std::ptr::null(),
            name,
            1,
            1,
            0,
        );
        assert_eq!(view_desc(slot).state, STATE_UNBOUND);

        let desc = cudaCreateChannelDesc(8, 8, 8, 8, 1);
        let dev = dmalloc(64);
        let mut off = 9usize;
        assert_eq!(
            cudaGetTextureAlignmentOffset(&mut off, host_ptr),
            INVALID_BINDING
        );
        assert_eq!(
            cudaBindTexture(&mut off, host_ptr, dev, &desc, usize::MAX),
            0
        );
        assert_eq!(off, 0);
        assert_eq!((*host_ptr).channelDesc, desc);
        let d = view_desc(slot);
        // 64 bytes of uchar4, read as normalized floats (the registration's `norm`).
        assert_eq!(
            (d.state, d.width, d.read_normalized, d.raw_kind),
            (STATE_READY, 16, 1, RAW_NONE)
        );
        assert_eq!(d.filter, 0);
        // A change to the host variable shows at the next launch.
        (*host_ptr).filterMode = 1;
        (*host_ptr).normalized = 1;
        let d = view_desc(slot);
        assert_eq!((d.filter, d.normalized_coords), (1, 1));

        let mut got: *const textureReference = std::ptr::null();
        assert_eq!(
            cudaGetTextureReference(&mut got, host_ptr as *const c_void),
            0
        );
        assert_eq!(got, host_ptr as *const textureReference);
        let stranger = Box::leak(Box::new(*host_ptr)) as *const textureReference;
        assert_eq!(
            cudaBindTexture(&mut off, stranger, dev, &desc, 64),
            INVALID_TEXTURE
        );
        assert_eq!(
            cudaBindTexture(&mut off, host_ptr, 0x10 as *const c_void, &desc, 64),
            INVALID_VALUE
        );
        assert_eq!(
            cudaBindTexture2D(&mut off, host_ptr, dev, &desc, 4, 4, 8),
            INVALID_VALUE
        );
        assert_eq!(
            cudaBindTexture2D(&mut off, host_ptr, dev, &desc, 2, 4, 16),
            0
        );
        assert_eq!(view_desc(slot).resource, RESOURCE_PITCH2D);

        let a = new_array(&desc, 4, 2);
        assert_eq!(cudaBindTextureToArray(host_ptr, a, std::ptr::null()), 0);
        assert_eq!(view_desc(slot).resource, RESOURCE_ARRAY);
        assert_eq!(cudaUnbindTexture(host_ptr), 0);
        assert_eq!(view_desc(slot).state, STATE_UNBOUND);
        assert_eq!(cudaUnbindTexture(stranger), INVALID_TEXTURE);
        assert_eq!(cudaFreeArray(a), 0);
        assert_eq!(cudaFree(dev), 0);
    }
}

/// An IR interpreter resolver that samples runtime descriptors, so the
/// interpreter and compiled kernels read textures alike.
struct Resolver(Vec<(u64, TexDesc)>);

impl cucc_ir::interp::TextureResolver for Resolver {
    fn fetch(&self, req: &cucc_ir::interp::TexRequest<'_>) -> Result<Vec<u64>, String> {
        let coords = req.coords;
        let d = self
            .0
            .iter()
            .find(|(h, _)| *h == req.handle)
            .map(|(_, d)| d)
            .ok_or_else(|| format!("no texture {:#x}", req.handle))?;
        let f = |i: usize| coords.get(i).map_or(0.0, |&c| f32::from_bits(c as u32));
        let (k, icoord) = match req.kind {
            // The interpreter resolves a lane fetch as a whole texel.
            cucc_ir::TexKind::Fetch1D | cucc_ir::TexKind::Fetch1DLane => {
                (KIND_FETCH1D, coords.first().copied().unwrap_or(0) as i32)
            }
            cucc_ir::TexKind::Tex1D => (sample::KIND_1D, 0),
            cucc_ir::TexKind::Tex2D => (sample::KIND_2D, 0),
            cucc_ir::TexKind::Tex3D => (sample::KIND_3D, 0),
        };
        let out_kind = sample::natural_out_kind(d);
        let size = sample::out_size(out_kind);
        // SAFETY: the test's descriptors cover their host buffers.
        let bytes = unsafe { sample(d, k, icoord, [f(0), f(1), f(2)], out_kind) };
        Ok((0..req.results)
            .map(|c| {
                let mut v = [0u8; 8];
                v[..size].copy_from_slice(&bytes[c * size..(c + 1) * size]);
                u64::from_le_bytes(v)
            })
            .collect())
    }
}

#[test]
fn interpreter_resolver_mirrors_the_runtime() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/programs/tex_array2d.cuir"
    ))
    .expect("kernel IR");
    let module = cucc_ir::parse_module(&text).expect("parse");
    let (w, h, ow, oh) = (8u64, 6u64, 20u32, 14u32);
    let img: Vec<f32> = (0..w * h)
        .map(|i| ((i % w) * (i % w)) as f32 + 10.0 * (i / w) as f32)
        .collect();
    let d = TexDesc {
        data: img.as_ptr().cast(),
        width: w,
        height: h,
        depth: 1,
        pitch: w * 4,
        slice_pitch: w * h * 4,
        texel_size: 4,
        state: STATE_READY,
        raw_kind: RAW_NONE,
        channels: 1,
        channel_bits: 32,
        format: sample::FORMAT_FLOAT,
        read_normalized: 0,
        filter: 1,
        normalized_coords: 1,
        address: [ADDRESS_CLAMP, ADDRESS_WRAP, ADDRESS_CLAMP],
        resource: RESOURCE_ARRAY,
        border: [0.0; 4],
    };
    let mut interp = cucc_ir::interp::Interpreter::new(&module);
    interp.set_textures(Box::new(Resolver(vec![(5, d)])));
    let out = interp
        .memory
        .alloc(cucc_ir::Space::Global, u64::from(ow * oh) * 4);
    let cfg = cucc_ir::interp::LaunchConfig {
        grid: [1, 1, 1],
        block: [ow, oh, 1],
        dynamic_shared: 0,
    };
    use cucc_ir::interp::Arg;
    interp
        .launch(
            "_Z8resampleyPfii",
            &cfg,
            &[
                Arg::Scalar(5),
                Arg::ptr(out),
                Arg::i32(ow as i32),
                Arg::i32(oh as i32),
            ],
        )
        .expect("launch");
    let bytes = interp
        .memory
        .read(out, u64::from(ow * oh) * 4)
        .expect("read");
    for y in 0..oh {
        for x in 0..ow {
            let u = (x as f32 + 0.5) / ow as f32;
            let v = (y as f32 + 0.5) / oh as f32 - 0.3;
            // SAFETY: `d` covers `img`.
            let want = unsafe { sample(&d, sample::KIND_2D, 0, [u, v, 0.0], OUT_F32) };
            let i = ((y * ow + x) * 4) as usize;
            assert_eq!(&bytes[i..i + 4], &want[..4], "at ({x}, {y})");
        }
    }
}
