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

/// The signature `result(params...)`.
const fn sig(params: &'static [ScalarKind], result: ScalarKind) -> ExternSig {
    ExternSig { params, result }
}

const F1: ExternSig = sig(&[F32], F32);
const F2: ExternSig = sig(&[F32, F32], F32);
const F3: ExternSig = sig(&[F32, F32, F32], F32);
const D1: ExternSig = sig(&[F64], F64);
const D2: ExternSig = sig(&[F64, F64], F64);
const D3: ExternSig = sig(&[F64, F64, F64], F64);

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
    if let Some(d) = Directed::parse(name) {
        return Some(d.sig());
    }
    FAST.iter().find(|(n, _)| *n == name).map(|(_, s)| *s)
}

/// A float operation rounded toward zero or an infinity instead of to
/// nearest (PTX's `.rz`/`.rm`/`.rp`, CUDA's `__fadd_rz` family). One
/// extern each, named `__cucc_<op>_<rz|rm|rp>_<f32|f64>`, so the C emitter
/// can use the machine's own directed rounding where it has one (AVX-512's
/// embedded rounding) and the interpreter computes it exactly.
/// The `f64` `fma` is not among them: its exact residual needs more than
/// `f64` arithmetic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Directed {
    /// The operation.
    pub op: DirectedOp,
    /// The rounding direction.
    pub dir: Direction,
    /// `f64` operands (else `f32`).
    pub double: bool,
}

/// The operations [`Directed`] covers (subtraction is addition of the
/// negation, a reciprocal a division of one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DirectedOp {
    /// `a + b`.
    Add,
    /// `a * b`.
    Mul,
    /// `a / b`.
    Div,
    /// `sqrt(a)`.
    Sqrt,
    /// `a * b + c`, rounded once.
    Fma,
}

/// A rounding direction other than to nearest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Toward zero (`rz`).
    Zero,
    /// Toward minus infinity (`rm`).
    Down,
    /// Toward plus infinity (`rp`).
    Up,
}

impl DirectedOp {
    const ALL: [(DirectedOp, &'static str, usize); 5] = [
        (DirectedOp::Add, "add", 2),
        (DirectedOp::Mul, "mul", 2),
        (DirectedOp::Div, "div", 2),
        (DirectedOp::Sqrt, "sqrt", 1),
        (DirectedOp::Fma, "fma", 3),
    ];

    /// The number of operands.
    pub fn arity(self) -> usize {
        Self::ALL
            .iter()
            .find(|(o, _, _)| *o == self)
            .map_or(0, |(_, _, n)| *n)
    }
}

impl Direction {
    const ALL: [(Direction, &'static str); 3] = [
        (Direction::Zero, "rz"),
        (Direction::Down, "rm"),
        (Direction::Up, "rp"),
    ];
}

impl Directed {
    /// The extern's name.
    pub fn name(self) -> String {
        let op = DirectedOp::ALL
            .iter()
            .find(|(o, _, _)| *o == self.op)
            .map_or("", |(_, n, _)| *n);
        let dir = Direction::ALL
            .iter()
            .find(|(d, _)| *d == self.dir)
            .map_or("", |(_, n)| *n);
        let ty = if self.double { "f64" } else { "f32" };
        format!("__cucc_{op}_{dir}_{ty}")
    }

    /// The operation an extern's name stands for, if it is one.
    pub fn parse(name: &str) -> Option<Directed> {
        let rest = name.strip_prefix("__cucc_")?;
        let (rest, double) = if let Some(r) = rest.strip_suffix("_f32") {
            (r, false)
        } else {
            (rest.strip_suffix("_f64")?, true)
        };
        let (op, dir) = rest.rsplit_once('_')?;
        let op = DirectedOp::ALL.iter().find(|(_, n, _)| *n == op)?.0;
        let dir = Direction::ALL.iter().find(|(_, n)| *n == dir)?.0;
        if double && op == DirectedOp::Fma {
            return None;
        }
        Some(Directed { op, dir, double })
    }

    /// Its signature: every operand and the result of the one float type.
    pub fn sig(self) -> ExternSig {
        match (self.double, self.op.arity()) {
            (false, 1) => F1,
            (false, 2) => F2,
            (false, _) => F3,
            (true, 1) => D1,
            (true, 2) => D2,
            (true, _) => D3,
        }
    }

    /// Every directed extern.
    pub fn all() -> impl Iterator<Item = Directed> {
        DirectedOp::ALL.iter().flat_map(|&(op, _, _)| {
            Direction::ALL.iter().flat_map(move |&(dir, _)| {
                [false, true]
                    .into_iter()
                    .map(move |double| Directed { op, dir, double })
                    .filter(|d| !(d.double && d.op == DirectedOp::Fma))
            })
        })
    }
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

    #[test]
    fn directed_names_round_trip() {
        let all: Vec<Directed> = Directed::all().collect();
        assert_eq!(all.len(), 27);
        for d in all {
            let n = d.name();
            assert_eq!(Directed::parse(&n), Some(d), "{n}");
            assert_eq!(lookup(&n), Some(d.sig()));
        }
        assert_eq!(lookup("__cucc_fma_rm_f32"), Some(F3));
        assert_eq!(lookup("__cucc_sqrt_rp_f64"), Some(D1));
        assert_eq!(Directed::parse("__cucc_fma_rz_f64"), None);
        assert_eq!(Directed::parse("__cucc_add_rn_f32"), None);
        assert_eq!(Directed::parse("__cucc_add_rz"), None);
    }
}
