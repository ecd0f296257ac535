//! Descriptors (tensor, filter, convolution, activation, pooling, LRN,
//! op-tensor) and their create/set/get/destroy entry points.
//!
//! Descriptors are heap objects behind NVIDIA's opaque pointer types. The
//! compute entry points copy what they need out of them when called, so a
//! descriptor may be changed or destroyed while queued work is pending.

use std::ffi::c_int;

use crate::scalar::DataType;
use crate::status::{check, guard, supported, Result, Status};
use crate::strided::packed_strides;

/// `CUDNN_DIM_MAX`: the most dimensions a tensor may have.
pub const DIM_MAX: usize = 8;

/// `cudnnTensorFormat_t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `CUDNN_TENSOR_NCHW` (0): channels before the spatial dimensions.
    Nchw,
    /// `CUDNN_TENSOR_NHWC` (1): channels innermost.
    Nhwc,
}

impl Format {
    fn from_raw(v: c_int) -> Result<Format> {
        match v {
            0 => Ok(Format::Nchw),
            1 => Ok(Format::Nhwc),
            // NCHW_VECT_C packs int8 vectors, which are not computed here.
            2 => Err(Status::NOT_SUPPORTED),
            _ => Err(Status::BAD_PARAM),
        }
    }
    fn raw(self) -> c_int {
        match self {
            Format::Nchw => 0,
            Format::Nhwc => 1,
        }
    }
    /// Packed strides of `dims` (N, C, spatial...) in this format.
    pub fn strides(self, dims: &[usize]) -> Vec<usize> {
        match self {
            Format::Nchw => packed_strides(dims),
            Format::Nhwc => {
                let nd = dims.len();
                let mut s = vec![0; nd];
                s[1] = 1;
                let mut acc = dims[1];
                for i in (2..nd).rev() {
                    s[i] = acc;
                    acc *= dims[i];
                }
                s[0] = acc;
                s
            }
        }
    }
}

/// `cudnnTensorDescriptor_t`'s pointee.
#[derive(Clone, Debug)]
pub struct TensorDesc {
    /// Element type.
    pub dtype: DataType,
    /// Extents (empty until set).
    pub dims: Vec<usize>,
    /// Strides in elements.
    pub strides: Vec<usize>,
}

impl TensorDesc {
    /// A set descriptor.
    pub fn new(dtype: DataType, dims: Vec<usize>, strides: Vec<usize>) -> TensorDesc {
        TensorDesc {
            dtype,
            dims,
            strides,
        }
    }
    /// Number of elements.
    pub fn count(&self) -> usize {
        self.dims.iter().product()
    }
    /// One past the largest offset any element has.
    pub fn span(&self) -> usize {
        if self.dims.contains(&0) {
            return 0;
        }
        1 + self
            .dims
            .iter()
            .zip(&self.strides)
            .map(|(d, s)| (d - 1) * s)
            .sum::<usize>()
    }
}

/// Reads a descriptor argument: NULL or never set is `BAD_PARAM`.
///
/// # Safety
/// A non-NULL `p` must come from `cudnnCreateTensorDescriptor`.
pub unsafe fn tensor<'a>(p: *const TensorDesc) -> Result<&'a TensorDesc> {
    let d = p.as_ref().ok_or(Status::BAD_PARAM)?;
    check(!d.dims.is_empty())?;
    Ok(d)
}

/// `BAD_PARAM` unless every descriptor has the first one's dims and data
/// type: the element-wise backward passes walk all of them with one index.
pub fn same_shape(ds: &[&TensorDesc]) -> Result<()> {
    check(
        ds.iter()
            .all(|d| d.dims == ds[0].dims && d.dtype == ds[0].dtype),
    )
}

/// Finishes a 2-d `...ForwardOutputDim` query from its N-d form: the N-d
/// call's failure `s` first, then `BAD_PARAM` for a NULL output, else the
/// four extents stored.
///
/// # Safety
/// Each non-NULL pointer in `to` must be writable.
pub unsafe fn write_nchw(s: Status, out: [c_int; 4], to: [*mut c_int; 4]) -> Result<()> {
    if s != Status::SUCCESS {
        return Err(s);
    }
    check(to.iter().all(|p| !p.is_null()))?;
    for (p, v) in to.into_iter().zip(out) {
        *p = v;
    }
    Ok(())
}

/// Reads `n` C ints, each at least `min`.
unsafe fn ints(p: *const c_int, n: usize, min: c_int) -> Result<Vec<usize>> {
    check(!p.is_null())?;
    let s = std::slice::from_raw_parts(p, n);
    check(s.iter().all(|&v| v >= min))?;
    Ok(s.iter().map(|&v| v as usize).collect())
}

fn check_elements(dims: &[usize], strides: &[usize]) -> Result<()> {
    // cuDNN limits a tensor to 2^31 - 1 elements and offsets.
    let span: u128 = dims
        .iter()
        .zip(strides)
        .map(|(&d, &s)| (d as u128 - 1) * s as u128)
        .sum();
    let count: u128 = dims.iter().map(|&d| d as u128).product();
    supported(span < i32::MAX as u128 && count < i32::MAX as u128)
}

fn set_tensor(
    d: *mut TensorDesc,
    dtype: c_int,
    dims: Vec<usize>,
    strides: Vec<usize>,
) -> Result<()> {
    let dtype = DataType::from_raw(dtype)?;
    check_elements(&dims, &strides)?;
    // SAFETY: callers checked `d` is non-NULL.
    unsafe {
        *d = TensorDesc::new(dtype, dims, strides);
    }
    Ok(())
}

macro_rules! create_destroy {
    ($create:ident, $destroy:ident, $ty:ty, $init:expr) => {
        /// Allocates a descriptor with default contents.
        #[no_mangle]
        pub unsafe extern "C" fn $create(out: *mut *mut $ty) -> Status {
            guard(|| {
                check(!out.is_null())?;
                *out = Box::into_raw(Box::new($init));
                Ok(())
            })
        }
        /// Frees a descriptor (NULL is accepted).
        #[no_mangle]
        pub unsafe extern "C" fn $destroy(d: *mut $ty) -> Status {
            guard(|| {
                if !d.is_null() {
                    drop(Box::from_raw(d));
                }
                Ok(())
            })
        }
    };
}

create_destroy!(
    cudnnCreateTensorDescriptor,
    cudnnDestroyTensorDescriptor,
    TensorDesc,
    TensorDesc::new(DataType::Float, Vec::new(), Vec::new())
);

/// `cudnnSetTensor4dDescriptor`: packed NCHW or NHWC.
#[no_mangle]
pub unsafe extern "C" fn cudnnSetTensor4dDescriptor(
    d: *mut TensorDesc,
    format: c_int,
    dtype: c_int,
    n: c_int,
    c: c_int,
    h: c_int,
    w: c_int,
) -> Status {
    guard(|| {
        check(!d.is_null())?;
        let dims = ints([n, c, h, w].as_ptr(), 4, 1)?;
        let format = Format::from_raw(format)?;
        let strides = format.strides(&dims);
        set_tensor(d, dtype, dims, strides)
    })
}

/// `cudnnSetTensor4dDescriptorEx`: explicit strides.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudnnSetTensor4dDescriptorEx(
    d: *mut TensorDesc,
    dtype: c_int,
    n: c_int,
    c: c_int,
    h: c_int,
    w: c_int,
    ns: c_int,
    cs: c_int,
    hs: c_int,
    ws: c_int,
) -> Status {
    guard(|| {
        check(!d.is_null())?;
        let dims = ints([n, c, h, w].as_ptr(), 4, 1)?;
        let strides = ints([ns, cs, hs, ws].as_ptr(), 4, 1)?;
        set_tensor(d, dtype, dims, strides)
    })
}

/// `cudnnGetTensor4dDescriptor` (the descriptor must have 4 dimensions).
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudnnGetTensor4dDescriptor(
    d: *const TensorDesc,
    dtype: *mut c_int,
    n: *mut c_int,
    c: *mut c_int,
    h: *mut c_int,
    w: *mut c_int,
    ns: *mut c_int,
    cs: *mut c_int,
    hs: *mut c_int,
    ws: *mut c_int,
) -> Status {
    guard(|| {
        let t = tensor(d)?;
        check(t.dims.len() == 4)?;
        let outs = [n, c, h, w, ns, cs, hs, ws];
        check(!dtype.is_null() && outs.iter().all(|p| !p.is_null()))?;
        *dtype = t.dtype.raw();
        for i in 0..4 {
            *outs[i] = t.dims[i] as c_int;
            *outs[4 + i] = t.strides[i] as c_int;
        }
        Ok(())
    })
}

/// `cudnnSetTensorNdDescriptor`: 3 to 8 dimensions with strides.
#[no_mangle]
pub unsafe extern "C" fn cudnnSetTensorNdDescriptor(
    d: *mut TensorDesc,
    dtype: c_int,
    nb: c_int,
    dim_a: *const c_int,
    stride_a: *const c_int,
) -> Status {
    guard(|| {
        check(!d.is_null() && nb > 0)?;
        supported((3..=DIM_MAX as c_int).contains(&nb))?;
        let dims = ints(dim_a, nb as usize, 1)?;
        let strides = ints(stride_a, nb as usize, 1)?;
        set_tensor(d, dtype, dims, strides)
    })
}

/// `cudnnSetTensorNdDescriptorEx`: packed strides from a format.
#[no_mangle]
pub unsafe extern "C" fn cudnnSetTensorNdDescriptorEx(
    d: *mut TensorDesc,
    format: c_int,
    dtype: c_int,
    nb: c_int,
    dim_a: *const c_int,
) -> Status {
    guard(|| {
        check(!d.is_null() && nb > 0)?;
        supported((3..=DIM_MAX as c_int).contains(&nb))?;
        let dims = ints(dim_a, nb as usize, 1)?;
        let strides = Format::from_raw(format)?.strides(&dims);
        set_tensor(d, dtype, dims, strides)
    })
}

/// `cudnnGetTensorNdDescriptor`: writes at most `requested` extents.
#[no_mangle]
pub unsafe extern "C" fn cudnnGetTensorNdDescriptor(
    d: *const TensorDesc,
    requested: c_int,
    dtype: *mut c_int,
    nb: *mut c_int,
    dim_a: *mut c_int,
    stride_a: *mut c_int,
) -> Status {
    guard(|| {
        let t = tensor(d)?;
        check(requested >= 0 && !dtype.is_null() && !nb.is_null())?;
        let k = (requested as usize).min(t.dims.len());
        check(k == 0 || (!dim_a.is_null() && !stride_a.is_null()))?;
        *dtype = t.dtype.raw();
        *nb = t.dims.len() as c_int;
        for i in 0..k {
            *dim_a.add(i) = t.dims[i] as c_int;
            *stride_a.add(i) = t.strides[i] as c_int;
        }
        Ok(())
    })
}

/// `cudnnGetTensorSizeInBytes`: bytes from the first to the last element.
#[no_mangle]
pub unsafe extern "C" fn cudnnGetTensorSizeInBytes(
    d: *const TensorDesc,
    size: *mut usize,
) -> Status {
    guard(|| {
        let t = tensor(d)?;
        check(!size.is_null())?;
        *size = t.span() * t.dtype.size();
        Ok(())
    })
}

// ------------------------------------------------------------------ filters

/// `cudnnFilterDescriptor_t`'s pointee: K, C (per group), spatial extents.
#[derive(Clone, Debug)]
pub struct FilterDesc {
    /// Element type.
    pub dtype: DataType,
    /// Memory format.
    pub format: Format,
    /// K, C, spatial... (empty until set).
    pub dims: Vec<usize>,
}

impl FilterDesc {
    /// Strides (elements) of the packed filter in its format.
    pub fn strides(&self) -> Vec<usize> {
        self.format.strides(&self.dims)
    }
    /// Number of elements.
    pub fn count(&self) -> usize {
        self.dims.iter().product()
    }
}

/// Reads a filter descriptor argument: NULL or never set is `BAD_PARAM`.
///
/// # Safety
/// A non-NULL `p` must come from `cudnnCreateFilterDescriptor`.
pub unsafe fn filter<'a>(p: *const FilterDesc) -> Result<&'a FilterDesc> {
    let d = p.as_ref().ok_or(Status::BAD_PARAM)?;
    check(!d.dims.is_empty())?;
    Ok(d)
}

create_destroy!(
    cudnnCreateFilterDescriptor,
    cudnnDestroyFilterDescriptor,
    FilterDesc,
    FilterDesc {
        dtype: DataType::Float,
        format: Format::Nchw,
        dims: Vec::new(),
    }
);

/// `cudnnSetFilter4dDescriptor`.
#[no_mangle]
pub unsafe extern "C" fn cudnnSetFilter4dDescriptor(
    d: *mut FilterDesc,
    dtype: c_int,
    format: c_int,
    k: c_int,
    c: c_int,
    h: c_int,
    w: c_int,
) -> Status {
    cudnnSetFilterNdDescriptor(d, dtype, format, 4, [k, c, h, w].as_ptr())
}

/// `cudnnSetFilterNdDescriptor`: 3 to 8 dimensions.
#[no_mangle]
pub unsafe extern "C" fn cudnnSetFilterNdDescriptor(
    d: *mut FilterDesc,
    dtype: c_int,
    format: c_int,
    nb: c_int,
    dim_a: *const c_int,
) -> Status {
    guard(|| {
        check(!d.is_null() && nb > 0)?;
        supported((3..=DIM_MAX as c_int).contains(&nb))?;
        let dims = ints(dim_a, nb as usize, 1)?;
        let dtype = DataType::from_raw(dtype)?;
        let format = Format::from_raw(format)?;
        check_elements(&dims, &format.strides(&dims))?;
        *d = FilterDesc {
            dtype,
            format,
            dims,
        };
        Ok(())
    })
}

/// `cudnnGetFilter4dDescriptor` (the descriptor must have 4 dimensions).
#[no_mangle]
pub unsafe extern "C" fn cudnnGetFilter4dDescriptor(
    d: *const FilterDesc,
    dtype: *mut c_int,
    format: *mut c_int,
    k: *mut c_int,
    c: *mut c_int,
    h: *mut c_int,
    w: *mut c_int,
) -> Status {
    guard(|| {
        let f = filter(d)?;
        check(f.dims.len() == 4)?;
        let outs = [k, c, h, w];
        check(!dtype.is_null() && !format.is_null() && outs.iter().all(|p| !p.is_null()))?;
        *dtype = f.dtype.raw();
        *format = f.format.raw();
        for (o, &d) in outs.iter().zip(&f.dims) {
            **o = d as c_int;
        }
        Ok(())
    })
}

/// `cudnnGetFilterNdDescriptor`.
#[no_mangle]
pub unsafe extern "C" fn cudnnGetFilterNdDescriptor(
    d: *const FilterDesc,
    requested: c_int,
    dtype: *mut c_int,
    format: *mut c_int,
    nb: *mut c_int,
    dim_a: *mut c_int,
) -> Status {
    guard(|| {
        let f = filter(d)?;
        check(requested >= 0 && !dtype.is_null() && !format.is_null() && !nb.is_null())?;
        let k = (requested as usize).min(f.dims.len());
        check(k == 0 || !dim_a.is_null())?;
        *dtype = f.dtype.raw();
        *format = f.format.raw();
        *nb = f.dims.len() as c_int;
        for i in 0..k {
            *dim_a.add(i) = f.dims[i] as c_int;
        }
        Ok(())
    })
}

/// `cudnnGetFilterSizeInBytes`.
#[no_mangle]
pub unsafe extern "C" fn cudnnGetFilterSizeInBytes(
    d: *const FilterDesc,
    size: *mut usize,
) -> Status {
    guard(|| {
        let f = filter(d)?;
        check(!size.is_null())?;
        *size = f.count() * f.dtype.size();
        Ok(())
    })
}

// ------------------------------------------------------------- convolution

/// `cudnnConvolutionDescriptor_t`'s pointee.
#[derive(Clone, Debug)]
pub struct ConvDesc {
    /// Padding per spatial dimension (empty until set).
    pub pad: Vec<usize>,
    /// Stride per spatial dimension.
    pub stride: Vec<usize>,
    /// Dilation per spatial dimension.
    pub dilation: Vec<usize>,
    /// `CUDNN_CONVOLUTION` (true: the filter is flipped) or
    /// `CUDNN_CROSS_CORRELATION` (false).
    pub flip: bool,
    /// Compute type (recorded; float tensors compute in float, double in
    /// double).
    pub compute: DataType,
    /// `cudnnMathType_t` (recorded and reported back; the CPU has one path).
    pub math: c_int,
    /// Group count.
    pub groups: usize,
}

/// Reads a convolution descriptor: NULL or never set is `BAD_PARAM`.
///
/// # Safety
/// A non-NULL `p` must come from `cudnnCreateConvolutionDescriptor`.
pub unsafe fn conv<'a>(p: *const ConvDesc) -> Result<&'a ConvDesc> {
    let d = p.as_ref().ok_or(Status::BAD_PARAM)?;
    check(!d.pad.is_empty())?;
    Ok(d)
}

unsafe fn conv_mut<'a>(p: *mut ConvDesc) -> Result<&'a mut ConvDesc> {
    p.as_mut().ok_or(Status::BAD_PARAM)
}

create_destroy!(
    cudnnCreateConvolutionDescriptor,
    cudnnDestroyConvolutionDescriptor,
    ConvDesc,
    ConvDesc {
        pad: Vec::new(),
        stride: Vec::new(),
        dilation: Vec::new(),
        flip: false,
        compute: DataType::Float,
        math: 0,
        groups: 1,
    }
);

fn conv_mode(mode: c_int) -> Result<bool> {
    match mode {
        0 => Ok(true),
        1 => Ok(false),
        _ => Err(Status::BAD_PARAM),
    }
}

/// `cudnnSetConvolution2dDescriptor`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudnnSetConvolution2dDescriptor(
    d: *mut ConvDesc,
    pad_h: c_int,
    pad_w: c_int,
    u: c_int,
    v: c_int,
    dil_h: c_int,
    dil_w: c_int,
    mode: c_int,
    compute: c_int,
) -> Status {
    cudnnSetConvolutionNdDescriptor(
        d,
        2,
        [pad_h, pad_w].as_ptr(),
        [u, v].as_ptr(),
        [dil_h, dil_w].as_ptr(),
        mode,
        compute,
    )
}

/// `cudnnSetConvolutionNdDescriptor`: 1 to 3 spatial dimensions.
#[no_mangle]
pub unsafe extern "C" fn cudnnSetConvolutionNdDescriptor(
    d: *mut ConvDesc,
    len: c_int,
    pad_a: *const c_int,
    stride_a: *const c_int,
    dil_a: *const c_int,
    mode: c_int,
    compute: c_int,
) -> Status {
    guard(|| {
        let c = conv_mut(d)?;
        check(len > 0)?;
        supported(len <= 3)?;
        let n = len as usize;
        let pad = ints(pad_a, n, 0)?;
        let stride = ints(stride_a, n, 1)?;
        let dilation = ints(dil_a, n, 1)?;
        let flip = conv_mode(mode)?;
        let compute = DataType::from_raw(compute)?;
        c.pad = pad;
        c.stride = stride;
        c.dilation = dilation;
        c.flip = flip;
        c.compute = compute;
        Ok(())
    })
}

/// `cudnnGetConvolution2dDescriptor`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudnnGetConvolution2dDescriptor(
    d: *const ConvDesc,
    pad_h: *mut c_int,
    pad_w: *mut c_int,
    u: *mut c_int,
    v: *mut c_int,
    dil_h: *mut c_int,
    dil_w: *mut c_int,
    mode: *mut c_int,
    compute: *mut c_int,
) -> Status {
    guard(|| {
        let c = conv(d)?;
        check(c.pad.len() == 2)?;
        let outs = [pad_h, pad_w, u, v, dil_h, dil_w, mode, compute];
        check(outs.iter().all(|p| !p.is_null()))?;
        *pad_h = c.pad[0] as c_int;
        *pad_w = c.pad[1] as c_int;
        *u = c.stride[0] as c_int;
        *v = c.stride[1] as c_int;
        *dil_h = c.dilation[0] as c_int;
        *dil_w = c.dilation[1] as c_int;
        *mode = if c.flip { 0 } else { 1 };
        *compute = c.compute.raw();
        Ok(())
    })
}

/// `cudnnGetConvolutionNdDescriptor`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudnnGetConvolutionNdDescriptor(
    d: *const ConvDesc,
    requested: c_int,
    len: *mut c_int,
    pad_a: *mut c_int,
    stride_a: *mut c_int,
    dil_a: *mut c_int,
    mode: *mut c_int,
    compute: *mut c_int,
) -> Status {
    guard(|| {
        let c = conv(d)?;
        check(requested >= 0 && !len.is_null() && !mode.is_null() && !compute.is_null())?;
        let k = (requested as usize).min(c.pad.len());
        check(k == 0 || (!pad_a.is_null() && !stride_a.is_null() && !dil_a.is_null()))?;
        *len = c.pad.len() as c_int;
        for i in 0..k {
            *pad_a.add(i) = c.pad[i] as c_int;
            *stride_a.add(i) = c.stride[i] as c_int;
            *dil_a.add(i) = c.dilation[i] as c_int;
        }
        *mode = if c.flip { 0 } else { 1 };
        *compute = c.compute.raw();
        Ok(())
    })
}

/// `cudnnSetConvolutionGroupCount`.
#[no_mangle]
pub unsafe extern "C" fn cudnnSetConvolutionGroupCount(d: *mut ConvDesc, groups: c_int) -> Status {
    guard(|| {
        let c = conv_mut(d)?;
        check(groups >= 1)?;
        c.groups = groups as usize;
        Ok(())
    })
}

/// `cudnnGetConvolutionGroupCount`.
#[no_mangle]
pub unsafe extern "C" fn cudnnGetConvolutionGroupCount(
    d: *mut ConvDesc,
    groups: *mut c_int,
) -> Status {
    guard(|| {
        let c = conv_mut(d)?;
        check(!groups.is_null())?;
        *groups = c.groups as c_int;
        Ok(())
    })
}

/// `cudnnSetConvolutionMathType`: DEFAULT, TENSOR_OP, TENSOR_OP_ALLOW_CONVERSION
/// or FMA; recorded only (the CPU computes in the tensors' type).
#[no_mangle]
pub unsafe extern "C" fn cudnnSetConvolutionMathType(d: *mut ConvDesc, math: c_int) -> Status {
    guard(|| {
        let c = conv_mut(d)?;
        check((0..=3).contains(&math))?;
        c.math = math;
        Ok(())
    })
}

/// `cudnnGetConvolutionMathType`.
#[no_mangle]
pub unsafe extern "C" fn cudnnGetConvolutionMathType(d: *mut ConvDesc, math: *mut c_int) -> Status {
    guard(|| {
        let c = conv_mut(d)?;
        check(!math.is_null())?;
        *math = c.math;
        Ok(())
    })
}

// -------------------------------------------------------------- activation

/// `cudnnActivationDescriptor_t`'s pointee.
#[derive(Clone, Copy, Debug)]
pub struct ActivationDesc {
    /// `cudnnActivationMode_t` (0 sigmoid ... 6 swish).
    pub mode: c_int,
    /// `CUDNN_PROPAGATE_NAN` (relu and clipped relu keep NaNs).
    pub propagate_nan: bool,
    /// Clipping threshold (clipped relu) or alpha (elu).
    pub coef: f64,
    /// Swish's beta.
    pub swish_beta: f64,
}

create_destroy!(
    cudnnCreateActivationDescriptor,
    cudnnDestroyActivationDescriptor,
    ActivationDesc,
    ActivationDesc {
        mode: 1,
        propagate_nan: false,
        coef: 0.0,
        swish_beta: 1.0,
    }
);

fn nan_opt(v: c_int) -> Result<bool> {
    match v {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(Status::BAD_PARAM),
    }
}

/// `cudnnSetActivationDescriptor`.
#[no_mangle]
pub unsafe extern "C" fn cudnnSetActivationDescriptor(
    d: *mut ActivationDesc,
    mode: c_int,
    nan: c_int,
    coef: f64,
) -> Status {
    guard(|| {
        let a = d.as_mut().ok_or(Status::BAD_PARAM)?;
        check((0..=6).contains(&mode))?;
        a.propagate_nan = nan_opt(nan)?;
        a.mode = mode;
        a.coef = coef;
        Ok(())
    })
}

/// `cudnnGetActivationDescriptor`.
#[no_mangle]
pub unsafe extern "C" fn cudnnGetActivationDescriptor(
    d: *const ActivationDesc,
    mode: *mut c_int,
    nan: *mut c_int,
    coef: *mut f64,
) -> Status {
    guard(|| {
        let a = d.as_ref().ok_or(Status::BAD_PARAM)?;
        check(!mode.is_null() && !nan.is_null() && !coef.is_null())?;
        *mode = a.mode;
        *nan = a.propagate_nan as c_int;
        *coef = a.coef;
        Ok(())
    })
}

/// `cudnnSetActivationDescriptorSwishBeta`.
#[no_mangle]
pub unsafe extern "C" fn cudnnSetActivationDescriptorSwishBeta(
    d: *mut ActivationDesc,
    beta: f64,
) -> Status {
    guard(|| {
        d.as_mut().ok_or(Status::BAD_PARAM)?.swish_beta = beta;
        Ok(())
    })
}

/// `cudnnGetActivationDescriptorSwishBeta`.
#[no_mangle]
pub unsafe extern "C" fn cudnnGetActivationDescriptorSwishBeta(
    d: *const ActivationDesc,
    beta: *mut f64,
) -> Status {
    guard(|| {
        let a = d.as_ref().ok_or(Status::BAD_PARAM)?;
        check(!beta.is_null())?;
        *beta = a.swish_beta;
        Ok(())
    })
}

// ----------------------------------------------------------------- pooling

/// `cudnnPoolingDescriptor_t`'s pointee.
#[derive(Clone, Debug)]
pub struct PoolingDesc {
    /// `cudnnPoolingMode_t`: 0 max, 1 average including padding, 2 average
    /// excluding padding, 3 max (deterministic).
    pub mode: c_int,
    /// Whether max pooling propagates NaNs.
    pub propagate_nan: bool,
    /// Window per spatial dimension (empty until set).
    pub window: Vec<usize>,
    /// Padding per spatial dimension.
    pub pad: Vec<usize>,
    /// Stride per spatial dimension.
    pub stride: Vec<usize>,
}

create_destroy!(
    cudnnCreatePoolingDescriptor,
    cudnnDestroyPoolingDescriptor,
    PoolingDesc,
    PoolingDesc {
        mode: 0,
        propagate_nan: false,
        window: Vec::new(),
        pad: Vec::new(),
        stride: Vec::new(),
    }
);

/// Reads a pooling descriptor: NULL or never set is `BAD_PARAM`.
///
/// # Safety
/// A non-NULL `p` must come from `cudnnCreatePoolingDescriptor`.
pub unsafe fn pooling<'a>(p: *const PoolingDesc) -> Result<&'a PoolingDesc> {
    let d = p.as_ref().ok_or(Status::BAD_PARAM)?;
    check(!d.window.is_empty())?;
    Ok(d)
}

/// `cudnnSetPooling2dDescriptor`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudnnSetPooling2dDescriptor(
    d: *mut PoolingDesc,
    mode: c_int,
    nan: c_int,
    wh: c_int,
    ww: c_int,
    ph: c_int,
    pw: c_int,
    sh: c_int,
    sw: c_int,
) -> Status {
    cudnnSetPoolingNdDescriptor(
        d,
        mode,
        nan,
        2,
        [wh, ww].as_ptr(),
        [ph, pw].as_ptr(),
        [sh, sw].as_ptr(),
    )
}

/// `cudnnSetPoolingNdDescriptor`: 1 to 3 spatial dimensions.
#[no_mangle]
pub unsafe extern "C" fn cudnnSetPoolingNdDescriptor(
    d: *mut PoolingDesc,
    mode: c_int,
    nan: c_int,
    nb: c_int,
    win_a: *const c_int,
    pad_a: *const c_int,
    stride_a: *const c_int,
) -> Status {
    guard(|| {
        let p = d.as_mut().ok_or(Status::BAD_PARAM)?;
        check((0..=3).contains(&mode) && nb > 0)?;
        supported(nb <= 3)?;
        let n = nb as usize;
        let window = ints(win_a, n, 1)?;
        let pad = ints(pad_a, n, 0)?;
        let stride = ints(stride_a, n, 1)?;
        p.propagate_nan = nan_opt(nan)?;
        p.mode = mode;
        p.window = window;
        p.pad = pad;
        p.stride = stride;
        Ok(())
    })
}

/// `cudnnGetPooling2dDescriptor`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudnnGetPooling2dDescriptor(
    d: *const PoolingDesc,
    mode: *mut c_int,
    nan: *mut c_int,
    wh: *mut c_int,
    ww: *mut c_int,
    ph: *mut c_int,
    pw: *mut c_int,
    sh: *mut c_int,
    sw: *mut c_int,
) -> Status {
    guard(|| {
        let p = pooling(d)?;
        check(p.window.len() == 2)?;
        let outs = [mode, nan, wh, ww, ph, pw, sh, sw];
        check(outs.iter().all(|q| !q.is_null()))?;
        *mode = p.mode;
        *nan = p.propagate_nan as c_int;
        *wh = p.window[0] as c_int;
        *ww = p.window[1] as c_int;
        *ph = p.pad[0] as c_int;
        *pw = p.pad[1] as c_int;
        *sh = p.stride[0] as c_int;
        *sw = p.stride[1] as c_int;
        Ok(())
    })
}

/// `cudnnGetPoolingNdDescriptor`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudnnGetPoolingNdDescriptor(
    d: *const PoolingDesc,
    requested: c_int,
    mode: *mut c_int,
    nan: *mut c_int,
    nb: *mut c_int,
    win_a: *mut c_int,
    pad_a: *mut c_int,
    stride_a: *mut c_int,
) -> Status {
    guard(|| {
        let p = pooling(d)?;
        check(requested >= 0 && !mode.is_null() && !nan.is_null() && !nb.is_null())?;
        let k = (requested as usize).min(p.window.len());
        check(k == 0 || (!win_a.is_null() && !pad_a.is_null() && !stride_a.is_null()))?;
        *mode = p.mode;
        *nan = p.propagate_nan as c_int;
        *nb = p.window.len() as c_int;
        for i in 0..k {
            *win_a.add(i) = p.window[i] as c_int;
            *pad_a.add(i) = p.pad[i] as c_int;
            *stride_a.add(i) = p.stride[i] as c_int;
        }
        Ok(())
    })
}

// --------------------------------------------------------------------- LRN

/// `cudnnLRNDescriptor_t`'s pointee.
#[derive(Clone, Copy, Debug)]
pub struct LrnDesc {
    /// Window width in channels.
    pub n: u32,
    /// Scale of the sum of squares.
    pub alpha: f64,
    /// Exponent.
    pub beta: f64,
    /// Bias.
    pub k: f64,
}

create_destroy!(
    cudnnCreateLRNDescriptor,
    cudnnDestroyLRNDescriptor,
    LrnDesc,
    LrnDesc {
        n: 5,
        alpha: 1e-4,
        beta: 0.75,
        k: 2.0,
    }
);

/// `cudnnSetLRNDescriptor`: n in [1, 16], k >= 1e-5, beta >= 0.01.
#[no_mangle]
pub unsafe extern "C" fn cudnnSetLRNDescriptor(
    d: *mut LrnDesc,
    n: u32,
    alpha: f64,
    beta: f64,
    k: f64,
) -> Status {
    guard(|| {
        let l = d.as_mut().ok_or(Status::BAD_PARAM)?;
        check((1..=16).contains(&n) && k >= 1e-5 && beta >= 0.01)?;
        *l = LrnDesc { n, alpha, beta, k };
        Ok(())
    })
}

/// `cudnnGetLRNDescriptor`.
#[no_mangle]
pub unsafe extern "C" fn cudnnGetLRNDescriptor(
    d: *const LrnDesc,
    n: *mut u32,
    alpha: *mut f64,
    beta: *mut f64,
    k: *mut f64,
) -> Status {
    guard(|| {
        let l = d.as_ref().ok_or(Status::BAD_PARAM)?;
        check(!n.is_null() && !alpha.is_null() && !beta.is_null() && !k.is_null())?;
        *n = l.n;
        *alpha = l.alpha;
        *beta = l.beta;
        *k = l.k;
        Ok(())
    })
}

// --------------------------------------------------------------- op tensor

/// `cudnnOpTensorDescriptor_t`'s pointee.
#[derive(Clone, Copy, Debug)]
pub struct OpTensorDesc {
    /// `cudnnOpTensorOp_t`: add, mul, min, max, sqrt, not (0..=5).
    pub op: c_int,
    /// Compute type (recorded).
    pub compute: c_int,
    /// NaN propagation (recorded).
    pub nan: c_int,
}

create_destroy!(
    cudnnCreateOpTensorDescriptor,
    cudnnDestroyOpTensorDescriptor,
    OpTensorDesc,
    OpTensorDesc {
        op: 0,
        compute: 0,
        nan: 0,
    }
);

/// `cudnnSetOpTensorDescriptor`.
#[no_mangle]
pub unsafe extern "C" fn cudnnSetOpTensorDescriptor(
    d: *mut OpTensorDesc,
    op: c_int,
    compute: c_int,
    nan: c_int,
) -> Status {
    guard(|| {
        let o = d.as_mut().ok_or(Status::BAD_PARAM)?;
        check((0..=5).contains(&op))?;
        DataType::from_raw(compute)?;
        nan_opt(nan)?;
        *o = OpTensorDesc { op, compute, nan };
        Ok(())
    })
}

/// `cudnnGetOpTensorDescriptor`.
#[no_mangle]
pub unsafe extern "C" fn cudnnGetOpTensorDescriptor(
    d: *const OpTensorDesc,
    op: *mut c_int,
    compute: *mut c_int,
    nan: *mut c_int,
) -> Status {
    guard(|| {
        let o = d.as_ref().ok_or(Status::BAD_PARAM)?;
        check(!op.is_null() && !compute.is_null() && !nan.is_null())?;
        *op = o.op;
        *compute = o.compute;
        *nan = o.nan;
        Ok(())
    })
}
