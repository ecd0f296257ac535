//! `__match_any_sync`, `__match_all_sync` and `__reduce_*_sync`.
//!
//! The IR has no op for them: every lane reads every lane's value with an
//! indexed shuffle (32 of them, written out: all lanes take part in each, so
//! they can sit under a branch that only some lanes take, with a partial
//! mask) and keeps the values of the lanes in `mask`; constant masks fold
//! the other reads away. This is what the PTX frontend does for
//! `match.sync` and `redux.sync`. Written in cucc's headers instead, the
//! 32 reads of each overload made every unit's AST a quarter larger.

use cucc_ir::{BinOp, CastOp, CmpPred, ShuffleMode, Value};

use super::ctype::CType;
use super::expr::RV;
use super::func::{FnCx, R};
use crate::ast::Node;

/// The reduction of `__reduce_NAME_sync` on a signed or unsigned value:
/// operation and identity.
fn reduction(name: &str, signed: bool) -> Option<(BinOp, i64)> {
    Some(match (name, signed) {
        ("__reduce_add_sync", _) => (BinOp::Add, 0),
        ("__reduce_min_sync", true) => (BinOp::SMin, i64::from(i32::MAX)),
        ("__reduce_min_sync", false) => (BinOp::UMin, -1),
        ("__reduce_max_sync", true) => (BinOp::SMax, i64::from(i32::MIN)),
        ("__reduce_max_sync", false) => (BinOp::UMax, 0),
        ("__reduce_and_sync", _) => (BinOp::And, -1),
        ("__reduce_or_sync", _) => (BinOp::Or, 0),
        ("__reduce_xor_sync", _) => (BinOp::Xor, 0),
        _ => return None,
    })
}

impl<'m, 'a> FnCx<'m, 'a> {
    /// Lane `l`'s `v` and whether `l` is in `mask`.
    fn lane_value(&mut self, mask: Value, v: Value, l: i32) -> (Value, Value) {
        let mut b = self.b();
        let lane = b.i32(l);
        let w = b.i32(32);
        let o = b.shuffle(ShuffleMode::Idx, mask, v, lane, w);
        let bit = b.i32(1 << l);
        let m = b.binary(BinOp::And, mask, bit);
        let z = b.i32(0);
        (o, b.cmp(CmpPred::Ne, m, z))
    }

    /// The match and reduce intrinsics; `None` for other names.
    pub(super) fn warp_match_reduce(
        &mut self,
        e: &'a Node,
        name: &str,
        decl: &'a Node,
        args: &[&'a Node],
    ) -> R<Option<RV>> {
        let is_match = matches!(name, "__match_any_sync" | "__match_all_sync");
        if !is_match && !name.starts_with("__reduce_") {
            return Ok(None);
        }
        let (m, mct) = self.arg_scalar(args, 0, decl, e)?;
        let mask = self.i32_of(m, &mct, e)?;
        let (v, vct) = self.arg_scalar(args, 1, decl, e)?;
        let u32c = CType::int(32, false);
        if is_match {
            // Bit patterns are compared, as match.sync.b32/b64 does.
            let v = match &vct {
                CType::Float(_) => {
                    let t = self.b().ty(v);
                    let bits = self.mc.module.types.size_of(t) * 8;
                    let it = self.mc.module.types.int(bits as u8);
                    self.b().cast(CastOp::Bitcast, v, it)
                }
                _ => v,
            };
            let mut same = self.b().i32(0);
            for l in 0..32 {
                let (o, member) = self.lane_value(mask, v, l);
                let mut b = self.b();
                let eq = b.cmp(CmpPred::Eq, o, v);
                let hit = b.binary(BinOp::And, eq, member);
                let bit = b.i32(1 << l);
                let z = b.i32(0);
                let add = b.select(hit, bit, z);
                same = b.binary(BinOp::Or, same, add);
            }
            if name == "__match_any_sync" {
                return Ok(Some(self.result(same, &u32c, e)?));
            }
            let (p, _) = self.arg_scalar(args, 2, decl, e)?;
            let i32t = self.mc.module.types.i32();
            let mut b = self.b();
            let all = b.cmp(CmpPred::Eq, same, mask);
            let z = b.i32(0);
            let r = b.select(all, mask, z);
            let flag = b.cast(CastOp::ZExt, all, i32t);
            self.store(p, flag, &CType::INT);
            return Ok(Some(self.result(r, &u32c, e)?));
        }
        let Some((op, init)) = reduction(name, vct.is_signed()) else {
            return Ok(None);
        };
        let v = self.i32_of(v, &vct, e)?;
        let i32t = self.mc.module.types.i32();
        let mut acc = self.b().const_int(i32t, init);
        for l in 0..32 {
            let (o, member) = self.lane_value(mask, v, l);
            let mut b = self.b();
            let next = b.binary(op, acc, o);
            acc = b.select(member, next, acc);
        }
        Ok(Some(self.result(acc, &vct, e)?))
    }
}
