//! Convolutions: geometry and argument checks ([`Geom`]), the lowering
//! helpers (im2col, col2im, packed weights), the engines ([`exec`]) and the
//! entry points with their algorithm queries ([`api`], [`algo`]).
//!
//! Every convolution is normalised to three spatial dimensions (a 2-D
//! convolution has depth 1), so one set of loops serves 1-D, 2-D and 3-D.

pub mod algo;
pub mod api;
pub mod exec;

use std::ffi::c_int;

use crate::desc::{conv, filter, tensor, write_nchw, ConvDesc, FilterDesc, TensorDesc};
use crate::scalar::{DataType, Ptr, Real};
use crate::status::{check, guard, supported, Result, Status};

/// The shape of one convolution, checked and normalised to 3-D.
#[derive(Clone, Debug)]
pub struct Geom {
    /// Element type of x, w and y.
    pub dtype: DataType,
    /// Batch.
    pub n: usize,
    /// Input channels (all groups).
    pub c: usize,
    /// Output channels (all groups).
    pub k: usize,
    /// Group count.
    pub groups: usize,
    /// Input channels per group.
    pub cg: usize,
    /// Output channels per group.
    pub kg: usize,
    /// Input extents (d, h, w).
    pub in_sp: [usize; 3],
    /// Output extents.
    pub out_sp: [usize; 3],
    /// Filter extents.
    pub filt: [usize; 3],
    /// Padding.
    pub pad: [usize; 3],
    /// Stride.
    pub stride: [usize; 3],
    /// Dilation.
    pub dil: [usize; 3],
    /// `CUDNN_CONVOLUTION` flips the filter.
    pub flip: bool,
    /// x strides (n, c, d, h, w).
    pub xs: [usize; 5],
    /// y strides (n, k, d, h, w).
    pub ys: [usize; 5],
    /// w strides (k, c, d, h, w).
    pub ws: [usize; 5],
    /// The convolution's math type (reported back in algorithm queries).
    pub math: c_int,
    /// Workers the GEMM engine splits the batch across, fixed when the
    /// call is checked so that the workspace size the caller was told and
    /// the slices the queued work uses always agree.
    pub workers: usize,
    /// Images per GEMM: thin outputs (few positions per image) are
    /// batched so that each GEMM has at least ~256 columns, which amortises
    /// OpenBLAS's packing of the weights.
    pub batch: usize,
}

fn to3(v: &[usize], fill: usize) -> [usize; 3] {
    let mut out = [fill; 3];
    let off = 3 - v.len();
    out[off..].copy_from_slice(v);
    out
}

fn to5(v: &[usize]) -> [usize; 5] {
    // (n, c, spatial...) with missing leading spatial dimensions of extent 1.
    let mut out = [0; 5];
    out[0] = v[0];
    out[1] = v[1];
    let sp = &v[2..];
    out[5 - sp.len()..].copy_from_slice(sp);
    out
}

/// Output extents of a convolution of `in_sp` (cuDNN's formula).
pub fn output_extent(
    input: usize,
    pad: usize,
    filt: usize,
    dil: usize,
    stride: usize,
) -> Result<usize> {
    let span = (filt - 1) * dil + 1;
    check(input + 2 * pad >= span)?;
    Ok((input + 2 * pad - span) / stride + 1)
}

impl Geom {
    /// Checks x, w and the convolution against each other (and y when
    /// given) as cuDNN does: `BAD_PARAM` for mismatches, `NOT_SUPPORTED` for
    /// shapes beyond 3 spatial dimensions or computed types.
    pub fn new(
        xd: &TensorDesc,
        wd: &FilterDesc,
        cd: &ConvDesc,
        yd: Option<&TensorDesc>,
    ) -> Result<Geom> {
        let nb = xd.dims.len();
        check(wd.dims.len() == nb && cd.pad.len() + 2 == nb)?;
        supported(nb <= 5)?;
        check(xd.dtype == wd.dtype)?;
        let (n, c) = (xd.dims[0], xd.dims[1]);
        let (k, cg) = (wd.dims[0], wd.dims[1]);
        let groups = cd.groups;
        check(c == cg * groups && k % groups == 0)?;
        let in_v = &xd.dims[2..];
        let f_v = &wd.dims[2..];
        let mut out_v = Vec::with_capacity(nb - 2);
        for i in 0..nb - 2 {
            out_v.push(output_extent(
                in_v[i],
                cd.pad[i],
                f_v[i],
                cd.dilation[i],
                cd.stride[i],
            )?);
        }
        let mut ys = [0; 5];
        if let Some(yd) = yd {
            check(yd.dtype == xd.dtype)?;
            check(
                yd.dims.len() == nb
                    && yd.dims[0] == n
                    && yd.dims[1] == k
                    && yd.dims[2..] == out_v[..],
            )?;
            ys = to5(&yd.strides);
        }
        Ok(Geom {
            dtype: xd.dtype,
            n,
            c,
            k,
            groups,
            cg,
            kg: k / groups,
            in_sp: to3(in_v, 1),
            out_sp: to3(&out_v, 1),
            filt: to3(f_v, 1),
            pad: to3(&cd.pad, 0),
            stride: to3(&cd.stride, 1),
            dil: to3(&cd.dilation, 1),
            flip: cd.flip,
            xs: to5(&xd.strides),
            ys,
            ws: to5(&wd.strides()),
            math: cd.math,
            workers: exec::workers(n),
            batch: {
                let p: usize = out_v.iter().product();
                256usize
                    .div_ceil(p.max(1))
                    .clamp(1, n.div_ceil(exec::workers(n)))
            },
        })
    }

    /// Output positions per image and channel.
    pub fn p_out(&self) -> usize {
        self.out_sp.iter().product()
    }
    /// Input positions per image and channel.
    pub fn p_in(&self) -> usize {
        self.in_sp.iter().product()
    }
    /// Filter taps per channel.
    pub fn taps(&self) -> usize {
        self.filt.iter().product()
    }
    /// Rows of the im2col matrix (channels per group x taps).
    pub fn col_rows(&self) -> usize {
        self.cg * self.taps()
    }
    /// Multiply-adds of the whole convolution (one direction).
    pub fn macs(&self) -> f64 {
        self.n as f64 * self.k as f64 * self.col_rows() as f64 * self.p_out() as f64
    }
    /// A 1x1 convolution with unit stride and no padding reads x as a
    /// matrix directly when x's channel and spatial strides are packed NCHW.
    pub fn x_is_matrix(&self) -> bool {
        self.filt == [1, 1, 1]
            && self.stride == [1, 1, 1]
            && self.pad == [0, 0, 0]
            && packed_image(&self.xs, &self.in_sp)
    }
    /// Whether y's channel and spatial strides are packed NCHW.
    pub fn y_is_matrix(&self) -> bool {
        packed_image(&self.ys, &self.out_sp)
    }
    /// Whether x's channel and spatial strides are packed NCHW.
    pub fn x_packed(&self) -> bool {
        packed_image(&self.xs, &self.in_sp)
    }
    /// Whether each group is a single channel (depthwise), where direct
    /// loops beat tiny GEMMs.
    pub fn depthwise(&self) -> bool {
        self.cg == 1 && self.kg == 1 && self.groups > 1
    }
    /// Offset of filter tap `t` (row-major over filt) for weight element
    /// (k, c), flipped for `CUDNN_CONVOLUTION`.
    pub fn w_offset(&self, k: usize, c: usize, t: usize) -> usize {
        let [fd, fh, fw] = self.filt;
        let (mut d, mut h, mut w) = (t / (fh * fw), t / fw % fh, t % fw);
        if self.flip {
            d = fd - 1 - d;
            h = fh - 1 - h;
            w = fw - 1 - w;
        }
        k * self.ws[0] + c * self.ws[1] + d * self.ws[2] + h * self.ws[3] + w * self.ws[4]
    }
}

fn packed_image(s: &[usize; 5], sp: &[usize; 3]) -> bool {
    let [d, h, w] = *sp;
    (w == 1 || s[4] == 1) && (h == 1 || s[3] == w) && (d == 1 || s[2] == h * w) && s[1] == d * h * w
}

/// For output index `o` along one dimension and filter tap `f`, the input
/// index, or None in the padding.
#[inline(always)]
pub fn in_index(
    o: usize,
    f: usize,
    stride: usize,
    dil: usize,
    pad: usize,
    extent: usize,
) -> Option<usize> {
    let i = (o * stride + f * dil).checked_sub(pad)?;
    (i < extent).then_some(i)
}

/// The range of output indices whose input index for tap `f` lies inside
/// `[0, extent)`.
#[inline]
pub fn valid_range(
    f: usize,
    stride: usize,
    dil: usize,
    pad: usize,
    extent: usize,
    out: usize,
) -> (usize, usize) {
    // o*stride + f*dil - pad in [0, extent)
    let off = f * dil;
    let lo = if off >= pad {
        0
    } else {
        (pad - off).div_ceil(stride)
    };
    let hi_num = (extent + pad) as isize - off as isize - 1;
    let hi = if hi_num < 0 {
        0
    } else {
        (hi_num as usize / stride + 1).min(out)
    };
    (lo.min(hi), hi)
}

/// Packs group-major weights as the row-major matrix `[K, cg * taps]`
/// (filter flipped for `CUDNN_CONVOLUTION`).
///
/// # Safety
/// `w` must hold the filter `g` describes.
pub unsafe fn pack_weights<T: Real>(g: &Geom, w: Ptr<T>) -> Vec<T> {
    let taps = g.taps();
    let rows = g.col_rows();
    let mut m = vec![T::ZERO; g.k * rows];
    for k in 0..g.k {
        for c in 0..g.cg {
            for t in 0..taps {
                m[k * rows + c * taps + t] = w.get(g.w_offset(k, c, t));
            }
        }
    }
    m
}

/// im2col of image `n`, group `grp`: `col[(c, tap), p]` is the input under
/// tap `tap` of output position `p` (0 in the padding).
///
/// # Safety
/// `x` must hold the input `g` describes; `col` has `col_rows * p_out`
/// elements.
pub unsafe fn im2col<T: Real>(g: &Geom, x: Ptr<T>, n: usize, grp: usize, col: &mut [T]) {
    im2col_at(g, x, n, grp, col, g.p_out(), 0)
}

/// [`im2col`] into columns `first..first + p_out` of a matrix whose rows
/// are `ld` long (several images side by side for one GEMM).
///
/// # Safety
/// As [`im2col`], with `col` holding `col_rows * ld` elements.
pub unsafe fn im2col_at<T: Real>(
    g: &Geom,
    x: Ptr<T>,
    n: usize,
    grp: usize,
    col: &mut [T],
    ld: usize,
    first: usize,
) {
    let [fd, fh, fw] = g.filt;
    let [od, oh, ow] = g.out_sp;
    let p = g.p_out();
    for c in 0..g.cg {
        let base = n * g.xs[0] + (grp * g.cg + c) * g.xs[1];
        for kd in 0..fd {
            for kh in 0..fh {
                for kw in 0..fw {
                    let row = ((c * fd + kd) * fh + kh) * fw + kw;
                    let dst = &mut col[row * ld + first..row * ld + first + p];
                    let (wlo, whi) =
                        valid_range(kw, g.stride[2], g.dil[2], g.pad[2], g.in_sp[2], ow);
                    for zd in 0..od {
                        let id = in_index(zd, kd, g.stride[0], g.dil[0], g.pad[0], g.in_sp[0]);
                        for zh in 0..oh {
                            let seg = &mut dst[(zd * oh + zh) * ow..(zd * oh + zh + 1) * ow];
                            let ih = in_index(zh, kh, g.stride[1], g.dil[1], g.pad[1], g.in_sp[1]);
                            let (Some(id), Some(ih)) = (id, ih) else {
                                seg.fill(T::ZERO);
                                continue;
                            };
                            let row_base = base + id * g.xs[2] + ih * g.xs[3];
                            seg[..wlo].fill(T::ZERO);
                            seg[whi..].fill(T::ZERO);
                            for (zw, v) in seg.iter_mut().enumerate().take(whi).skip(wlo) {
                                let iw = zw * g.stride[2] + kw * g.dil[2] - g.pad[2];
                                *v = x.get(row_base + iw * g.xs[4]);
                            }
                        }
                    }
                }
            }
        }
    }
}

/// col2im: adds `col[(c, tap), p]` back onto the packed input image
/// `img[c, d, h, w]` of one group (the adjoint of [`im2col`]).
pub fn col2im<T: Real>(g: &Geom, col: &[T], img: &mut [T]) {
    col2im_at(g, col, img, g.p_out(), 0)
}

/// [`col2im`] from columns `first..first + p_out` of rows `ld` long.
pub fn col2im_at<T: Real>(g: &Geom, col: &[T], img: &mut [T], ld: usize, first: usize) {
    let [fd, fh, fw] = g.filt;
    let [od, oh, ow] = g.out_sp;
    let [_, ih_n, iw_n] = g.in_sp;
    let p = g.p_out();
    let pin = g.p_in();
    for c in 0..g.cg {
        let dst = &mut img[c * pin..(c + 1) * pin];
        for kd in 0..fd {
            for kh in 0..fh {
                for kw in 0..fw {
                    let row = ((c * fd + kd) * fh + kh) * fw + kw;
                    let src = &col[row * ld + first..row * ld + first + p];
                    let (wlo, whi) =
                        valid_range(kw, g.stride[2], g.dil[2], g.pad[2], g.in_sp[2], ow);
                    for zd in 0..od {
                        let Some(id) =
                            in_index(zd, kd, g.stride[0], g.dil[0], g.pad[0], g.in_sp[0])
                        else {
                            continue;
                        };
                        for zh in 0..oh {
                            let Some(ih) =
                                in_index(zh, kh, g.stride[1], g.dil[1], g.pad[1], g.in_sp[1])
                            else {
                                continue;
                            };
                            let seg = &src[(zd * oh + zh) * ow..];
                            let drow = (id * ih_n + ih) * iw_n;
                            for (zw, &v) in seg.iter().enumerate().take(whi).skip(wlo) {
                                let iw = zw * g.stride[2] + kw * g.dil[2] - g.pad[2];
                                dst[drow + iw] += v;
                            }
                        }
                    }
                }
            }
        }
    }
}

/// `cudnnGetConvolution2dForwardOutputDim`.
#[no_mangle]
pub unsafe extern "C" fn cudnnGetConvolution2dForwardOutputDim(
    cd: *const ConvDesc,
    xd: *const TensorDesc,
    wd: *const FilterDesc,
    n: *mut c_int,
    c: *mut c_int,
    h: *mut c_int,
    w: *mut c_int,
) -> Status {
    guard(|| {
        let mut out = [0 as c_int; 4];
        let s = cudnnGetConvolutionNdForwardOutputDim(cd, xd, wd, 4, out.as_mut_ptr());
        write_nchw(s, out, [n, c, h, w])
    })
}

/// `cudnnGetConvolutionNdForwardOutputDim`: N, K and the output extents.
#[no_mangle]
pub unsafe extern "C" fn cudnnGetConvolutionNdForwardOutputDim(
    cd: *const ConvDesc,
    xd: *const TensorDesc,
    wd: *const FilterDesc,
    nb: c_int,
    out: *mut c_int,
) -> Status {
    guard(|| {
        let (cd, xd, wd) = (conv(cd)?, tensor(xd)?, filter(wd)?);
        check(!out.is_null() && nb as usize == xd.dims.len())?;
        let g = Geom::new(xd, wd, cd, None)?;
        let sp = xd.dims.len() - 2;
        *out = g.n as c_int;
        *out.add(1) = g.k as c_int;
        for i in 0..sp {
            *out.add(2 + i) = g.out_sp[3 - sp + i] as c_int;
        }
        Ok(())
    })
}
