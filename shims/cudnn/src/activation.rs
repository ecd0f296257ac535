//! `cudnnActivationForward` / `cudnnActivationBackward`: sigmoid, relu,
//! tanh, clipped relu, elu and swish, element-wise over strided tensors.
//! Identity is only meaningful inside `cudnnConvolutionBiasActivationForward`
//! and is `BAD_PARAM` here, as in cuDNN.

use std::ffi::c_void;

use crate::desc::{same_shape, tensor, ActivationDesc, TensorDesc};
use crate::handle::{handle, Handle};
use crate::scalar::{blend, Ptr, Real};
use crate::status::{check, guard, non_null, Result, Status};
use crate::stream::submit;
use crate::strided::par_walk;

/// Identity's mode value.
pub const IDENTITY: i32 = 5;

fn sigmoid<T: Real>(x: T) -> T {
    T::ONE / (T::ONE + (-x).exp())
}

/// The activation `a` applied to `x`.
pub fn forward_value<T: Real>(a: &ActivationDesc, x: T) -> T {
    let coef = T::from_f64(a.coef);
    match a.mode {
        0 => sigmoid(x),
        1 => {
            if x > T::ZERO || (x.is_nan() && a.propagate_nan) {
                x
            } else {
                T::ZERO
            }
        }
        2 => x.tanh(),
        3 => {
            if x.is_nan() && a.propagate_nan {
                x
            } else if x <= T::ZERO {
                T::ZERO
            } else if x > coef {
                coef
            } else {
                x
            }
        }
        4 => {
            if x > T::ZERO {
                x
            } else {
                coef * (x.exp() - T::ONE)
            }
        }
        6 => x * sigmoid(T::from_f64(a.swish_beta) * x),
        _ => x,
    }
}

/// The gradient through the activation given its input `x`, output `y` and
/// incoming gradient `dy`.
pub fn backward_value<T: Real>(a: &ActivationDesc, x: T, y: T, dy: T) -> T {
    let coef = T::from_f64(a.coef);
    match a.mode {
        0 => dy * y * (T::ONE - y),
        1 => {
            if x > T::ZERO {
                dy
            } else {
                T::ZERO
            }
        }
        2 => dy * (T::ONE - y * y),
        3 => {
            if x > T::ZERO && x < coef {
                dy
            } else {
                T::ZERO
            }
        }
        4 => {
            if x > T::ZERO {
                dy
            } else {
                dy * (y + coef)
            }
        }
        6 => {
            let b = T::from_f64(a.swish_beta);
            let s = sigmoid(b * x);
            dy * (s + b * x * s * (T::ONE - s))
        }
        _ => dy,
    }
}

fn activation<'a>(d: *const ActivationDesc) -> Result<&'a ActivationDesc> {
    // SAFETY: a non-NULL descriptor comes from cudnnCreateActivationDescriptor.
    let a = unsafe { d.as_ref() }.ok_or(Status::BAD_PARAM)?;
    check(a.mode != IDENTITY)?;
    Ok(a)
}

/// `cudnnActivationForward`: `y = alpha * f(x) + beta * y`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudnnActivationForward(
    h: *mut Handle,
    act: *const ActivationDesc,
    alpha: *const c_void,
    x_desc: *const TensorDesc,
    x: *const c_void,
    beta: *const c_void,
    y_desc: *const TensorDesc,
    y: *mut c_void,
) -> Status {
    guard(|| {
        let h = handle(h)?;
        let a = *activation(act)?;
        let (xd, yd) = (tensor(x_desc)?, tensor(y_desc)?);
        check(!alpha.is_null() && !beta.is_null() && !x.is_null() && !y.is_null())?;
        check(xd.dims == yd.dims && xd.dtype == yd.dtype)?;
        by_type!(
            yd.dtype,
            forward(h.stream, a, alpha, xd.clone(), x, beta, yd.clone(), y)
        )
    })
}

#[allow(clippy::too_many_arguments)]
unsafe fn forward<T: Real>(
    stream: *mut c_void,
    a: ActivationDesc,
    alpha: *const c_void,
    xd: TensorDesc,
    x: *const c_void,
    beta: *const c_void,
    yd: TensorDesc,
    y: *mut c_void,
) -> Result<()> {
    let (alpha, beta) = (T::read_scalar(alpha), T::read_scalar(beta));
    let (x, y) = (Ptr::<T>::from_const(x), Ptr::<T>::from_mut(y));
    submit(stream, move || {
        par_walk(&yd.dims, [&xd.strides, &yd.strides], |[ox, oy]| {
            // SAFETY: offsets come from the validated descriptors.
            unsafe { blend(y, oy, forward_value(&a, x.get(ox)), alpha, beta) }
        })
    })
}

/// `cudnnActivationBackward`: `dx = alpha * f'(x) dy + beta * dx`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cudnnActivationBackward(
    h: *mut Handle,
    act: *const ActivationDesc,
    alpha: *const c_void,
    y_desc: *const TensorDesc,
    y: *const c_void,
    dy_desc: *const TensorDesc,
    dy: *const c_void,
    x_desc: *const TensorDesc,
    x: *const c_void,
    beta: *const c_void,
    dx_desc: *const TensorDesc,
    dx: *mut c_void,
) -> Status {
    guard(|| {
        let h = handle(h)?;
        let a = *activation(act)?;
        let ds = [
            tensor(y_desc)?,
            tensor(dy_desc)?,
            tensor(x_desc)?,
            tensor(dx_desc)?,
        ];
        non_null(&[alpha, beta, y, dy, x, dx.cast_const()])?;
        same_shape(&ds)?;
        let strides = [
            ds[0].strides.clone(),
            ds[1].strides.clone(),
            ds[2].strides.clone(),
            ds[3].strides.clone(),
        ];
        let ptrs = [y, dy, x, dx.cast_const()];
        by_type!(
            ds[0].dtype,
            backward(h.stream, a, alpha, beta, ds[0].dims.clone(), strides, ptrs)
        )
    })
}

unsafe fn backward<T: Real>(
    stream: *mut c_void,
    a: ActivationDesc,
    alpha: *const c_void,
    beta: *const c_void,
    dims: Vec<usize>,
    s: [Vec<usize>; 4],
    p: [*const c_void; 4],
) -> Result<()> {
    let (alpha, beta) = (T::read_scalar(alpha), T::read_scalar(beta));
    let [y, dy, x, dx] = p.map(Ptr::<T>::from_const);
    submit(stream, move || {
        par_walk(&dims, [&s[0], &s[1], &s[2], &s[3]], |[oy, ody, ox, odx]| {
            // SAFETY: offsets come from the validated descriptors.
            unsafe {
                let g = backward_value(&a, x.get(ox), y.get(oy), dy.get(ody));
                blend(dx, odx, g, alpha, beta)
            }
        })
    })
}
