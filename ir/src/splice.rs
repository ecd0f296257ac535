//! Edits of a region's op list by op handle: find, insert before or after,
//! replace, remove.
//!
//! Passes know the op they want to edit around, not its index, and an index
//! found by searching goes stale as soon as the list changes. These
//! functions search at the moment of the edit. An op that is not in the
//! region is a bug in the pass, never in its input (the verifier has
//! accepted the IR): the edits panic naming the op and the region rather
//! than editing another position, and `find_op` returns `None` for callers
//! that expect absence.

use crate::func::{Function, Op, Region};

impl Function {
    /// The index of `op` in `region`'s op list, if it is there.
    pub fn find_op(&self, region: Region, op: Op) -> Option<usize> {
        self.regions[region].ops.iter().position(|&o| o == op)
    }

    /// The index of `op` in `region`'s op list.
    ///
    /// # Panics
    ///
    /// If `op` is not in `region` (an internal invariant of the caller).
    #[track_caller]
    pub fn op_index(&self, region: Region, op: Op) -> usize {
        match self.find_op(region, op) {
            Some(i) => i,
            None => missing(self, region, op),
        }
    }

    /// Inserts `ops`, in order, just before `anchor` in `region`.
    ///
    /// # Panics
    ///
    /// If `anchor` is not in `region`.
    #[track_caller]
    pub fn insert_before(&mut self, region: Region, anchor: Op, ops: impl IntoIterator<Item = Op>) {
        let at = self.op_index(region, anchor);
        self.regions[region].ops.splice(at..at, ops);
    }

    /// Inserts `ops`, in order, just after `anchor` in `region`.
    ///
    /// # Panics
    ///
    /// If `anchor` is not in `region`.
    #[track_caller]
    pub fn insert_after(&mut self, region: Region, anchor: Op, ops: impl IntoIterator<Item = Op>) {
        let at = self.op_index(region, anchor) + 1;
        self.regions[region].ops.splice(at..at, ops);
    }

    /// Puts `new` where `old` is in `region`; `old` leaves the list (it
    /// stays in the arena, dead, like every removed op).
    ///
    /// # Panics
    ///
    /// If `old` is not in `region`.
    #[track_caller]
    pub fn replace_op(&mut self, region: Region, old: Op, new: Op) {
        let at = self.op_index(region, old);
        self.regions[region].ops[at] = new;
    }

    /// Takes `op` out of `region`'s op list.
    ///
    /// # Panics
    ///
    /// If `op` is not in `region`; [`crate::edit::remove_op`] tolerates that.
    #[track_caller]
    pub fn unlink_op(&mut self, region: Region, op: Op) {
        let at = self.op_index(region, op);
        self.regions[region].ops.remove(at);
    }
}

#[cold]
#[track_caller]
fn missing(func: &Function, region: Region, op: Op) -> ! {
    let what = func
        .ops
        .try_get(op)
        .map_or("an op out of range", |d| d.kind.mnemonic());
    panic!(
        "internal error in @{}: op {} (`{what}`) is not in region {}",
        func.name,
        op.index(),
        region.index()
    )
}

#[cfg(test)]
mod tests {
    use crate::builder::Builder;
    use crate::func::{Function, FunctionKind, Op};
    use crate::types::Types;

    /// A kernel whose body holds three constants, `a`, `b`, `c`, and a
    /// spare constant built outside it.
    fn three() -> (Types, Function, [Op; 3], Op) {
        let mut types = Types::new();
        let mut f = Function::new("k", FunctionKind::Kernel, &[], &[]);
        let i32t = types.i32();
        let mut b = Builder::new(&mut types, &mut f);
        let ops = [0, 1, 2].map(|k| {
            let v = b.const_int(i32t, k);
            b.func.defining_op(v).expect("const")
        });
        let spare = b.func.new_op(
            crate::OpKind::Const { bits: 9 },
            Vec::new(),
            &[i32t],
            Vec::new(),
            crate::Loc::UNKNOWN,
        );
        (types, f, ops, spare)
    }

    #[test]
    fn edits_by_handle() {
        let (_, mut f, [a, b, c], spare) = three();
        let body = f.body;
        assert_eq!(f.op_index(body, c), 2);
        assert_eq!(f.find_op(body, spare), None);
        f.insert_before(body, b, [spare]);
        assert_eq!(f.regions[body].ops, [a, spare, b, c]);
        f.unlink_op(body, spare);
        f.insert_after(body, c, [spare]);
        assert_eq!(f.regions[body].ops, [a, b, c, spare]);
        f.replace_op(body, a, spare);
        f.unlink_op(body, c);
        assert_eq!(f.regions[body].ops, [spare, b, spare]);
    }

    #[test]
    fn builder_inserts_around_a_handle() {
        let (mut types, mut f, [a, b, c], _) = three();
        let body = f.body;
        let i32t = types.i32();
        let mut bld = Builder::new(&mut types, &mut f);
        bld.set_insertion_after(body, b);
        let x = bld.const_int(i32t, 7);
        let y = bld.const_int(i32t, 8);
        bld.set_insertion_before(body, a);
        let z = bld.const_int(i32t, 6);
        let [x, y, z] = [x, y, z].map(|v| f.defining_op(v).expect("const"));
        assert_eq!(f.regions[body].ops, [z, a, b, x, y, c]);
    }

    #[test]
    #[should_panic(expected = "internal error in @k: op 3 (`const`) is not in region 0")]
    fn a_missing_anchor_panics_rather_than_editing_the_first_op() {
        let (_, mut f, [a, ..], spare) = three();
        let body = f.body;
        f.insert_before(body, spare, [a]);
    }
}
