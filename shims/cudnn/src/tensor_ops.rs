//! Whole-tensor operations: `cudnnAddTensor`, `cudnnOpTensor`,
//! `cudnnTransformTensor`, `cudnnSetTensor`, `cudnnScaleTensor`.

use std::ffi::{c_int, c_void};

use crate::desc::{tensor, OpTensorDesc, TensorDesc};
use crate::handle::{handle, Handle};
use crate::scalar::{blend, Ptr, Real};
use crate::status::{check, guard, non_null, Result, Status};
use crate::stream::submit;
use crate::strided::par_walk;

/// Strides that read `src` over `dst`'s index space: equal extents keep
/// their stride, extent 1 broadcasts (stride 0), anything else is
/// `BAD_PARAM`.
pub fn broadcast_strides(src: &TensorDesc, dst: &TensorDesc) -> Result<Vec<usize>> {
    check(src.dims.len() == dst.dims.len())?;
    src.dims
        .iter()
        .zip(&dst.dims)
        .zip(&src.strides)
        .map(|((&s, &d), &st)| {
            if s == d {
                Ok(st)
            } else if s == 1 {
                Ok(0)
            } else {
                Err(Status::BAD_PARAM)
            }
        })
        .collect()
}

/// `cudnnAddTensor`: `C = alpha * A + beta * C`, A broadcast over C.
#[no_mangle]
pub unsafe extern "C" fn cudnnAddTensor(
    h: *mut Handle,
    alpha: *const c_void,
    a_desc: *const TensorDesc,
    a: *const c_void,
    beta: *const c_void,
    c_desc: *const TensorDesc,
    c: *mut c_void,
) -> Status {
    guard(|| {
        let h = handle(h)?;
        let (ad, cd) = (tensor(a_desc)?, tensor(c_desc)?);
        non_null(&[alpha, beta, a, c])?;
        check(ad.dtype == cd.dtype)?;
        let a_str = broadcast_strides(ad, cd)?;
        by_type!(
            cd.dtype,
            add_tensor(h.stream, alpha, a, a_str, beta, cd.clone(), c)
        )
    })
}

unsafe fn add_tensor<T: Real>(
    stream: *mut c_void,
    alpha: *const c_void,
    a: *const c_void,
    a_str: Vec<usize>,
    beta: *const c_void,
    cd: TensorDesc,
    c: *mut c_void,
) -> Result<()> {
    let (alpha, beta) = (T::read_scalar(alpha), T::read_scalar(beta));
    let (a, c) = (Ptr::<T>::from_const(a), Ptr::<T>::from_mut(c));
    submit(stream, move || {
        par_walk(&cd.dims, [&a_str, &cd.strides], |[oa, oc]| {
            // SAFETY: offsets come from the validated descriptors.
            unsafe { blend(c, oc, a.get(oa), alpha, beta) }
        })
    })
}

/// `cudnnOpTensor`: `C = op(alpha1 * A, alpha2 * B) + beta * C` for add,
/// mul, min, max; `sqrt(alpha1 * A)` and `not` (`1 - alpha1 * A`) read A
/// only. A has C's extents, B broadcasts over C.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudnnOpTensor(
    h: *mut Handle,
    op_desc: *const OpTensorDesc,
    alpha1: *const c_void,
    a_desc: *const TensorDesc,
    a: *const c_void,
    alpha2: *const c_void,
    b_desc: *const TensorDesc,
    b: *const c_void,
    beta: *const c_void,
    c_desc: *const TensorDesc,
    c: *mut c_void,
) -> Status {
    guard(|| {
        let h = handle(h)?;
        let op = op_desc.as_ref().ok_or(Status::BAD_PARAM)?.op;
        let (ad, cd) = (tensor(a_desc)?, tensor(c_desc)?);
        let unary = op == 4 || op == 5;
        non_null(&[alpha1, beta, a, c])?;
        check(ad.dtype == cd.dtype && ad.dims == cd.dims)?;
        let b_str = if unary {
            vec![0; cd.dims.len()]
        } else {
            let bd = tensor(b_desc)?;
            non_null(&[alpha2, b])?;
            check(bd.dtype == cd.dtype)?;
            broadcast_strides(bd, cd)?
        };
        let args = OpArgs {
            op,
            alpha1,
            alpha2,
            beta,
            a,
            a_str: ad.strides.clone(),
            b: if unary { a } else { b },
            b_str,
        };
        by_type!(cd.dtype, op_tensor(h.stream, args, cd.clone(), c))
    })
}

struct OpArgs {
    op: c_int,
    alpha1: *const c_void,
    alpha2: *const c_void,
    beta: *const c_void,
    a: *const c_void,
    a_str: Vec<usize>,
    b: *const c_void,
    b_str: Vec<usize>,
}

unsafe fn op_tensor<T: Real>(
    stream: *mut c_void,
    o: OpArgs,
    cd: TensorDesc,
    c: *mut c_void,
) -> Result<()> {
    let unary = o.op == 4 || o.op == 5;
    let a1 = T::read_scalar(o.alpha1);
    let a2 = if unary {
        T::ZERO
    } else {
        T::read_scalar(o.alpha2)
    };
    let beta = T::read_scalar(o.beta);
    let (a, b, c) = (
        Ptr::<T>::from_const(o.a),
        Ptr::<T>::from_const(o.b),
        Ptr::<T>::from_mut(c),
    );
    let (op, a_str, b_str) = (o.op, o.a_str, o.b_str);
    submit(stream, move || {
        par_walk(&cd.dims, [&a_str, &b_str, &cd.strides], |[oa, ob, oc]| {
            // SAFETY: offsets come from the validated descriptors.
            unsafe {
                let x = a1 * a.get(oa);
                let v = match op {
                    0 => x + a2 * b.get(ob),
                    1 => x * (a2 * b.get(ob)),
                    2 => {
                        let y = a2 * b.get(ob);
                        if y < x {
                            y
                        } else {
                            x
                        }
                    }
                    3 => {
                        let y = a2 * b.get(ob);
                        if y > x {
                            y
                        } else {
                            x
                        }
                    }
                    4 => x.sqrt(),
                    _ => T::ONE - x,
                };
                blend(c, oc, v, T::ONE, beta)
            }
        })
    })
}

/// `cudnnTransformTensor`: `y = alpha * x + beta * y` between layouts of
/// the same extents (NCHW <-> NHWC, padded strides, ...).
#[no_mangle]
pub unsafe extern "C" fn cudnnTransformTensor(
    h: *mut Handle,
    alpha: *const c_void,
    x_desc: *const TensorDesc,
    x: *const c_void,
    beta: *const c_void,
    y_desc: *const TensorDesc,
    y: *mut c_void,
) -> Status {
    guard(|| {
        let h = handle(h)?;
        let (xd, yd) = (tensor(x_desc)?, tensor(y_desc)?);
        non_null(&[alpha, beta, x, y])?;
        check(xd.dims == yd.dims)?;
        // Conversions between types (float <-> half) are not computed.
        if xd.dtype != yd.dtype {
            return Err(Status::NOT_SUPPORTED);
        }
        by_type!(
            yd.dtype,
            add_tensor(h.stream, alpha, x, xd.strides.clone(), beta, yd.clone(), y)
        )
    })
}

/// `cudnnSetTensor`: every element of `y` becomes `*value`.
#[no_mangle]
pub unsafe extern "C" fn cudnnSetTensor(
    h: *mut Handle,
    y_desc: *const TensorDesc,
    y: *mut c_void,
    value: *const c_void,
) -> Status {
    guard(|| {
        let h = handle(h)?;
        let yd = tensor(y_desc)?;
        non_null(&[y, value])?;
        by_type!(yd.dtype, fill(h.stream, yd.clone(), y, value, false))
    })
}

/// `cudnnScaleTensor`: `y = alpha * y`.
#[no_mangle]
pub unsafe extern "C" fn cudnnScaleTensor(
    h: *mut Handle,
    y_desc: *const TensorDesc,
    y: *mut c_void,
    alpha: *const c_void,
) -> Status {
    guard(|| {
        let h = handle(h)?;
        let yd = tensor(y_desc)?;
        non_null(&[y, alpha])?;
        by_type!(yd.dtype, fill(h.stream, yd.clone(), y, alpha, true))
    })
}

unsafe fn fill<T: Real>(
    stream: *mut c_void,
    yd: TensorDesc,
    y: *mut c_void,
    value: *const c_void,
    scale: bool,
) -> Result<()> {
    let v = T::read_scalar(value);
    let y = Ptr::<T>::from_mut(y);
    submit(stream, move || {
        par_walk(&yd.dims, [&yd.strides], |[o]| {
            // SAFETY: offsets come from the validated descriptor.
            unsafe {
                let nv = if scale { v * y.get(o) } else { v };
                y.set(o, nv)
            }
        })
    })
}
