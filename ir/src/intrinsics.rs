//! Known external functions that `call` may name: the C math library in
//! `float` and `double`, and CUDA's fast-math intrinsics. Frontends map
//! CUDA's math functions to these names; the interpreter evaluates them and
//! the C emitter calls them (or the C library function of the same meaning).

/// The scalar kinds extern signatures use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarKind {
    /// `f32`.
    F32,
    /// `f64`.
    F64,
    /// `i32`.
    I32,
    /// `i64`.
    I64,
}

/// An extern function's signature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExternSig {
    /// Parameter kinds.
    pub params: &'static [ScalarKind],
    /// Result kind.
    pub result: ScalarKind,
}

use ScalarKind::*;

const F1: ExternSig = ExternSig {
    params: &[F32],
    result: F32,
};
const F2: ExternSig = ExternSig {
    params: &[F32, F32],
    result: F32,
};
const F3: ExternSig = ExternSig {
    params: &[F32, F32, F32],
    result: F32,
};
const D1: ExternSig = ExternSig {
    params: &[F64],
    result: F64,
};
const D2: ExternSig = ExternSig {
    params: &[F64, F64],
    result: F64,
};
const D3: ExternSig = ExternSig {
    params: &[F64, F64, F64],
    result: F64,
};

/// Unary math functions, as (float name, double name).
pub const UNARY: &[(&str, &str)] = &[
    ("sinf", "sin"),
    ("cosf", "cos"),
    ("tanf", "tan"),
    ("asinf", "asin"),
    ("acosf", "acos"),
    ("atanf", "atan"),
    ("sinhf", "sinh"),
    ("coshf", "cosh"),
    ("tanhf", "tanh"),
    ("asinhf", "asinh"),
    ("acoshf", "acosh"),
    ("atanhf", "atanh"),
    ("expf", "exp"),
    ("exp2f", "exp2"),
    ("exp10f", "exp10"),
    ("expm1f", "expm1"),
    ("logf", "log"),
    ("log2f", "log2"),
    ("log10f", "log10"),
    ("log1pf", "log1p"),
    ("sqrtf", "sqrt"),
    ("rsqrtf", "rsqrt"),
    ("cbrtf", "cbrt"),
    ("fabsf", "fabs"),
    ("floorf", "floor"),
    ("ceilf", "ceil"),
    ("truncf", "trunc"),
    ("roundf", "round"),
    ("rintf", "rint"),
    ("nearbyintf", "nearbyint"),
    ("erff", "erf"),
    ("erfcf", "erfc"),
    ("lgammaf", "lgamma"),
    ("tgammaf", "tgamma"),
    ("sinpif", "sinpi"),
    ("cospif", "cospi"),
];

/// Binary math functions, as (float name, double name).
pub const BINARY: &[(&str, &str)] = &[
    ("powf", "pow"),
    ("atan2f", "atan2"),
    ("fmodf", "fmod"),
    ("hypotf", "hypot"),
    ("copysignf", "copysign"),
    ("fdimf", "fdim"),
    ("remainderf", "remainder"),
];

/// CUDA's fast single-precision intrinsics (`--use_fast_math` targets).
pub const FAST: &[(&str, ExternSig)] = &[
    ("__expf", F1),
    ("__exp10f", F1),
    ("__logf", F1),
    ("__log2f", F1),
    ("__log10f", F1),
    ("__sinf", F1),
    ("__cosf", F1),
    ("__tanf", F1),
    ("__powf", F2),
    ("__fdividef", F2),
    ("__saturatef", F1),
];

/// The signature of a known extern, or `None` if `name` is not one.
pub fn lookup(name: &str) -> Option<ExternSig> {
    for (f, d) in UNARY {
        if *f == name {
            return Some(F1);
        }
        if *d == name {
            return Some(D1);
        }
    }
    for (f, d) in BINARY {
        if *f == name {
            return Some(F2);
        }
        if *d == name {
            return Some(D2);
        }
    }
    match name {
        "fmaf" => return Some(F3),
        "fma" => return Some(D3),
        _ => {}
    }
    FAST.iter().find(|(n, _)| *n == name).map(|(_, s)| *s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookups() {
        assert_eq!(lookup("sinf"), Some(F1));
        assert_eq!(lookup("pow"), Some(D2));
        assert_eq!(lookup("fmaf"), Some(F3));
        assert_eq!(lookup("__expf"), Some(F1));
        assert_eq!(lookup("system"), None);
    }
}
