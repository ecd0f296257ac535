//! Named operands and regions of ops.
//!
//! An op keeps its operands and regions in plain vectors whose order each
//! [`OpKind`] documents (`for` is `(lb, ub, step, init...) [body]`). Passes
//! read and write them through these accessors instead of by position, so
//! the order is written down once, here, and a pass reads as what it means
//! (`data.ub()`, `data.body()`). An accessor asked of an op that has no such
//! role is a bug of the caller: it panics in debug builds.

use crate::func::OpData;
use crate::{OpKind, Region, Value};

/// Position of `for`'s lower bound, upper bound and step; the carried
/// initial values follow.
const FOR_LB: usize = 0;
const FOR_UB: usize = 1;
const FOR_STEP: usize = 2;
const FOR_INITS: usize = 3;

/// Declares a getter and a setter for an operand at a fixed position among
/// the kinds listed.
macro_rules! operand_role {
    ($(#[$doc:meta])* $get:ident, $set:ident, $pos:expr, $($kind:pat_param)|+) => {
        $(#[$doc])*
        #[track_caller]
        pub fn $get(&self) -> Value {
            self.expect(matches!(self.kind, $($kind)|+), stringify!($get));
            self.operands[$pos]
        }

        #[doc = concat!("Replaces [`Self::", stringify!($get), "`].")]
        #[track_caller]
        pub fn $set(&mut self, v: Value) {
            self.expect(matches!(self.kind, $($kind)|+), stringify!($set));
            self.operands[$pos] = v;
        }
    };
}

/// Declares a getter for a region at a fixed position among the kinds listed.
macro_rules! region_role {
    ($(#[$doc:meta])* $get:ident, $pos:expr, $($kind:pat_param)|+) => {
        $(#[$doc])*
        #[track_caller]
        pub fn $get(&self) -> Region {
            self.expect(matches!(self.kind, $($kind)|+), stringify!($get));
            self.regions[$pos]
        }
    };
}

impl OpData {
    /// The check every accessor makes: asking an op for a role its kind
    /// does not have (`has` false) is a bug of the caller.
    #[track_caller]
    fn expect(&self, has: bool, role: &str) {
        debug_assert!(has, "`{role}` of {:?}", self.kind);
    }

    operand_role!(
        /// Left operand of a binary op or comparison.
        lhs, set_lhs, 0, OpKind::Binary(..) | OpKind::Cmp(..)
    );
    operand_role!(
        /// Right operand of a binary op or comparison.
        rhs, set_rhs, 1, OpKind::Binary(..) | OpKind::Cmp(..)
    );
    operand_role!(
        /// The operand of a unary op or cast.
        input, set_input, 0, OpKind::Unary(..) | OpKind::Cast(..)
    );
    operand_role!(
        /// Condition of a `select`, an `if` or a `condition` terminator.
        cond, set_cond, 0, OpKind::Select | OpKind::If | OpKind::Condition
    );
    operand_role!(
        /// `select`'s value when the condition holds.
        if_true, set_if_true, 1, OpKind::Select
    );
    operand_role!(
        /// `select`'s value when the condition does not hold.
        if_false, set_if_false, 2, OpKind::Select
    );
    operand_role!(
        /// `for`'s lower bound (the first value of the induction variable).
        lb, set_lb, FOR_LB, OpKind::For { .. }
    );
    operand_role!(
        /// `for`'s exclusive upper bound.
        ub, set_ub, FOR_UB, OpKind::For { .. }
    );
    operand_role!(
        /// `for`'s step.
        step, set_step, FOR_STEP, OpKind::For { .. }
    );
    operand_role!(
        /// The address an op reads or writes: loads, stores, atomics,
        /// prefetches, and the base of `ptr.index`/`ptr.field`.
        ptr, set_ptr, 0,
        OpKind::Load { .. }
            | OpKind::Store { .. }
            | OpKind::AtomicRmw { .. }
            | OpKind::AtomicCas { .. }
            | OpKind::Prefetch
            | OpKind::PtrIndex { .. }
            | OpKind::PtrField { .. }
    );
    operand_role!(
        /// `ptr.index`'s element index.
        index, set_index, 1, OpKind::PtrIndex { .. }
    );
    operand_role!(
        /// The value a store writes or an atomic read-modify-write combines;
        /// the value a shuffle moves.
        value, set_value, 1, OpKind::Store { .. } | OpKind::AtomicRmw { .. }
    );
    operand_role!(
        /// A compare-and-swap's expected old value.
        expected, set_expected, 1, OpKind::AtomicCas { .. }
    );
    operand_role!(
        /// The value a compare-and-swap writes when the old one matched.
        desired, set_desired, 2, OpKind::AtomicCas { .. }
    );
    operand_role!(
        /// Destination of `memcpy` and `memset`.
        dst, set_dst, 0, OpKind::Memcpy | OpKind::Memset
    );
    operand_role!(
        /// Source of `memcpy`.
        src, set_src, 1, OpKind::Memcpy
    );
    operand_role!(
        /// The byte `memset` writes.
        fill, set_fill, 1, OpKind::Memset
    );
    operand_role!(
        /// Lane mask of a warp barrier, shuffle or vote.
        mask, set_mask, 0,
        OpKind::Barrier(..) | OpKind::Shuffle(..) | OpKind::Vote(..)
    );
    operand_role!(
        /// The value a shuffle moves between lanes.
        shuffled, set_shuffled, 1, OpKind::Shuffle(..)
    );
    operand_role!(
        /// A shuffle's source lane, or lane distance for `up`/`down`/`xor`.
        lane, set_lane, 2, OpKind::Shuffle(..)
    );
    operand_role!(
        /// A shuffle's segment width.
        width, set_width, 3, OpKind::Shuffle(..)
    );
    operand_role!(
        /// A texture fetch's handle.
        handle, set_handle, 0, OpKind::TexFetch(..)
    );

    region_role!(
        /// `if`'s region run when the condition holds.
        then_region, 0, OpKind::If
    );
    region_role!(
        /// `if`'s region run when the condition does not hold.
        else_region, 1, OpKind::If
    );
    region_role!(
        /// The body of a `for` or a `parallel`.
        body, 0, OpKind::For { .. } | OpKind::Parallel { .. }
    );
    region_role!(
        /// `while`'s region that computes the condition.
        before, 0, OpKind::While
    );
    region_role!(
        /// `while`'s region run while the condition holds.
        after, 1, OpKind::While
    );

    /// The predicate of a vote or a reducing block barrier.
    #[track_caller]
    pub fn pred(&self) -> Value {
        match self.kind {
            OpKind::Vote(..) => self.operands[1],
            OpKind::BarrierReduce(..) => self.operands[0],
            ref k => panic!("`pred` of {k:?}"),
        }
    }

    /// Byte count of `memcpy`, `memset` and `prefetch`.
    #[track_caller]
    pub fn byte_len(&self) -> Value {
        match self.kind {
            OpKind::Memcpy | OpKind::Memset => self.operands[2],
            OpKind::Prefetch => self.operands[1],
            ref k => panic!("`byte_len` of {k:?}"),
        }
    }

    /// The three loop-control operands of a `for`: `(lb, ub, step)`.
    #[track_caller]
    pub fn bounds(&self) -> (Value, Value, Value) {
        (self.lb(), self.ub(), self.step())
    }

    /// Initial values of the carried values of a `for` (after the bounds) or
    /// a `while` (all its operands).
    #[track_caller]
    pub fn inits(&self) -> &[Value] {
        match self.kind {
            OpKind::For { .. } => &self.operands[FOR_INITS..],
            OpKind::While => &self.operands,
            ref k => panic!("`inits` of {k:?}"),
        }
    }

    /// Mutable [`Self::inits`].
    #[track_caller]
    pub fn inits_mut(&mut self) -> &mut [Value] {
        match self.kind {
            OpKind::For { .. } => &mut self.operands[FOR_INITS..],
            OpKind::While => &mut self.operands,
            ref k => panic!("`inits_mut` of {k:?}"),
        }
    }

    /// A `parallel`'s upper bounds, one per dimension.
    #[track_caller]
    pub fn ubs(&self) -> &[Value] {
        self.expect(matches!(self.kind, OpKind::Parallel { .. }), "ubs");
        &self.operands
    }

    /// The values a terminator passes on: all of `yield`'s and `return`'s
    /// operands, `condition`'s after its condition.
    #[track_caller]
    pub fn values(&self) -> &[Value] {
        match self.kind {
            OpKind::Yield | OpKind::Return => &self.operands,
            OpKind::Condition => &self.operands[1..],
            ref k => panic!("`values` of {k:?}"),
        }
    }

    /// Mutable [`Self::values`].
    #[track_caller]
    pub fn values_mut(&mut self) -> &mut [Value] {
        match self.kind {
            OpKind::Yield | OpKind::Return => &mut self.operands,
            OpKind::Condition => &mut self.operands[1..],
            ref k => panic!("`values_mut` of {k:?}"),
        }
    }

    /// The arguments of a call or `printf`.
    #[track_caller]
    pub fn args(&self) -> &[Value] {
        self.expect(
            matches!(self.kind, OpKind::Call(..) | OpKind::Printf { .. }),
            "args",
        );
        &self.operands
    }

    /// A texture fetch's coordinates.
    #[track_caller]
    pub fn coords(&self) -> &[Value] {
        self.expect(matches!(self.kind, OpKind::TexFetch(..)), "coords");
        &self.operands[1..]
    }

    /// The single result of an op that has exactly one.
    #[track_caller]
    pub fn result(&self) -> Value {
        debug_assert_eq!(self.results.len(), 1, "`result` of {:?}", self.kind);
        self.results[0]
    }

    // Changing how many values an op carries or passes on.

    /// Takes the `k`-th of [`Self::inits`] out of a `for` or `while`; the
    /// caller drops the matching region argument and result.
    #[track_caller]
    pub fn remove_init(&mut self, k: usize) -> Value {
        match self.kind {
            OpKind::For { .. } => self.operands.remove(FOR_INITS + k),
            OpKind::While => self.operands.remove(k),
            ref k => panic!("`remove_init` of {k:?}"),
        }
    }

    /// Replaces [`Self::pred`].
    #[track_caller]
    pub fn set_pred(&mut self, v: Value) {
        match self.kind {
            OpKind::Vote(..) => self.operands[1] = v,
            OpKind::BarrierReduce(..) => self.operands[0] = v,
            ref k => panic!("`set_pred` of {k:?}"),
        }
    }

    /// Replaces all of [`Self::inits`] of a `for` or `while`, whose count
    /// may change; the bounds of a `for` stay.
    #[track_caller]
    pub fn set_inits(&mut self, inits: impl IntoIterator<Item = Value>) {
        match self.kind {
            OpKind::For { .. } => self.operands.truncate(FOR_INITS),
            OpKind::While => self.operands.clear(),
            ref k => panic!("`set_inits` of {k:?}"),
        }
        self.operands.extend(inits);
    }

    /// Appends `inits` to [`Self::inits`] of a `for` or `while`; the caller
    /// adds the matching region arguments and results.
    #[track_caller]
    pub fn push_inits(&mut self, inits: impl IntoIterator<Item = Value>) {
        self.expect(
            matches!(self.kind, OpKind::For { .. } | OpKind::While),
            "push_inits",
        );
        self.operands.extend(inits);
    }

    /// Appends `values` to [`Self::values`] of a terminator.
    #[track_caller]
    pub fn push_values(&mut self, values: impl IntoIterator<Item = Value>) {
        self.expect(
            matches!(
                self.kind,
                OpKind::Yield | OpKind::Return | OpKind::Condition
            ),
            "push_values",
        );
        self.operands.extend(values);
    }

    /// Replaces all of [`Self::values`] of a terminator, whose count may
    /// change; a `condition` keeps its condition.
    #[track_caller]
    pub fn set_values(&mut self, values: impl IntoIterator<Item = Value>) {
        match self.kind {
            OpKind::Yield | OpKind::Return => self.operands.clear(),
            OpKind::Condition => self.operands.truncate(1),
            ref k => panic!("`set_values` of {k:?}"),
        }
        self.operands.extend(values);
    }

    /// `if`'s region run when the condition is `taken` (then) or not
    /// (else): for folds that know the condition's value.
    #[track_caller]
    pub fn branch(&self, taken: bool) -> Region {
        if taken {
            self.then_region()
        } else {
            self.else_region()
        }
    }

    /// Mutable [`Self::ubs`].
    #[track_caller]
    pub fn ubs_mut(&mut self) -> &mut [Value] {
        self.expect(matches!(self.kind, OpKind::Parallel { .. }), "ubs_mut");
        &mut self.operands
    }

    /// Replaces all of [`Self::ubs`] of a `parallel`, whose dimension count
    /// may change.
    #[track_caller]
    pub fn set_ubs(&mut self, ubs: impl IntoIterator<Item = Value>) {
        self.expect(matches!(self.kind, OpKind::Parallel { .. }), "set_ubs");
        self.operands.clear();
        self.operands.extend(ubs);
    }

    /// The operands that decide which region runs and how often: an `if`'s
    /// condition, a `for`'s bounds, none for a `while` (its condition is a
    /// terminator's).
    #[track_caller]
    pub fn controls(&self) -> &[Value] {
        match self.kind {
            OpKind::If => &self.operands[..1],
            OpKind::For { .. } => &self.operands[..FOR_INITS],
            OpKind::While => &[],
            ref k => panic!("`controls` of {k:?}"),
        }
    }

    /// Takes the `k`-th of [`Self::values`] out of a terminator.
    #[track_caller]
    pub fn remove_value(&mut self, k: usize) -> Value {
        match self.kind {
            OpKind::Yield | OpKind::Return => self.operands.remove(k),
            OpKind::Condition => self.operands.remove(1 + k),
            ref k => panic!("`remove_value` of {k:?}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::text::parse_test_module as parsed;
    use crate::OpKind;

    #[test]
    fn roles_name_the_documented_positions() {
        let src = "kernel @f(%n: i32, %p: ptr<global>) {
  %z = const 0 : i32
  %o = const 1 : i32
  %s = for %i = %z to %n step %o iter(%a = %z) -> (i32) {
    %b = add %a, %i : i32
    yield %b
  }
  %c = cmp slt %s, %n : i32
  %v = if %c -> (f32) {
    %x = load %p : f32
    yield %x
  } else {
    %y = const 0.0 : f32
    yield %y
  }
  store %p, %v
  return
}
";
        let module = parsed(src);
        let Some((_, func)) = module.functions.iter().next() else {
            panic!("no function")
        };
        let name = |v| func.values[v].name.as_deref();
        let mut seen = 0;
        for (_, data) in func.ops.iter() {
            match data.kind {
                OpKind::For { .. } => {
                    let (lb, ub, step) = data.bounds();
                    assert_eq!(name(lb), Some("z"));
                    assert_eq!(name(ub), Some("n"));
                    assert_eq!(name(step), Some("o"));
                    assert_eq!(data.inits(), &[lb]);
                    assert_eq!(func.regions[data.body()].args.len(), 2);
                    seen += 1;
                }
                OpKind::If => {
                    assert_eq!(name(data.cond()), Some("c"));
                    assert_ne!(data.then_region(), data.else_region());
                    seen += 1;
                }
                OpKind::Store { .. } => {
                    assert_eq!(name(data.ptr()), Some("p"));
                    assert_eq!(name(data.value()), Some("v"));
                    seen += 1;
                }
                _ => {}
            }
        }
        assert_eq!(seen, 3);
    }

    // The roles that change how many values an op carries.
    #[test]
    fn carried_values_are_added_and_removed_by_role() {
        let src = "kernel @g(%m: i32) {
  %lo = const 0 : i32
  %one = const 1 : i32
  %last = for %k = %lo to %m step %one iter(%acc = %one) -> (i32) {
    %next = mul %acc, %k : i32
    yield %next
  }
  return
}
";
        let module = parsed(src);
        let Some((_, func)) = module.functions.iter().next() else {
            panic!("no function")
        };
        let Some(mut data) = func
            .ops
            .iter()
            .find(|(_, d)| matches!(d.kind, OpKind::For { .. }))
            .map(|(_, d)| d.clone())
        else {
            panic!("no for")
        };
        let (lb, ub, step) = data.bounds();
        assert_eq!(data.controls(), &[lb, ub, step]);
        let init = data.inits()[0];
        data.set_inits([init]);
        data.push_inits([lb]);
        assert_eq!(data.inits(), &[init, lb]);
        assert_eq!(data.remove_init(0), init);
        assert_eq!(data.inits(), &[lb]);
        assert_eq!(data.bounds(), (lb, ub, step));
        let Some(&term) = func.regions[data.body()].ops.last() else {
            panic!("empty body")
        };
        let mut y = func.ops[term].clone();
        let next = y.values()[0];
        y.set_values([next]);
        y.push_values([next]);
        assert_eq!(y.remove_value(1), next);
        assert_eq!(y.values(), &[next]);
    }
}
