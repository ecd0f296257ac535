//! Handle checks, run before anything else looks at a function.
//!
//! Walks the region tree from the body without trusting any handle, and
//! records where every op and region sits. Once this reports nothing, the
//! other checks may index the function's arenas freely and use the
//! [`Layout`] instead of recomputing parent links.

use super::{located, VerifyError};
use crate::func::{Function, Op, OpData, Region, Value, ValueDef};
use crate::module::Module;
use crate::ops::{Callee, OpKind};
use crate::types::TypeId;

/// Who owns a region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Owner {
    /// The region is the function body.
    Body,
    /// The region is the `index`-th region of `op`.
    Op {
        /// The owning op.
        op: Op,
        /// Its position among the op's regions.
        index: usize,
    },
}

/// Where the reachable ops and regions of a function sit.
pub(super) struct Layout {
    /// Every reachable op, in pre-order (an op before the ops of its regions).
    pub order: Vec<Op>,
    /// Every reachable region, the body first.
    pub regions: Vec<Region>,
    /// Indexed by op: the holding region and the position in it.
    place: Vec<Option<(Region, usize)>>,
    /// Indexed by region: its owner.
    owner: Vec<Option<Owner>>,
}

impl Layout {
    /// The region holding `op` and the op's position in it.
    pub fn place(&self, op: Op) -> Option<(Region, usize)> {
        self.place.get(op.index()).copied().flatten()
    }

    /// The owner of a reachable region.
    pub fn owner(&self, region: Region) -> Option<Owner> {
        self.owner.get(region.index()).copied().flatten()
    }

    /// The op whose region holds `op` (`None` at the top of the body).
    pub fn parent_op(&self, op: Op) -> Option<Op> {
        let (region, _) = self.place(op)?;
        match self.owner(region)? {
            Owner::Body => None,
            Owner::Op { op, .. } => Some(op),
        }
    }

    /// The ops enclosing `op`, innermost first.
    pub fn ancestors(&self, op: Op) -> impl Iterator<Item = Op> + '_ {
        std::iter::successors(self.parent_op(op), move |&p| self.parent_op(p))
    }
}

/// Checks the handles of `func`; returns its layout (meaningful only if
/// nothing was reported), or `None` if the body itself is out of range.
pub(super) fn check(
    module: &Module,
    func: &Function,
    errors: &mut Vec<VerifyError>,
) -> Option<Layout> {
    let mut w = Walker {
        module,
        func,
        errors,
        layout: Layout {
            order: Vec::new(),
            regions: Vec::new(),
            place: vec![None; func.ops.len()],
            owner: vec![None; func.regions.len()],
        },
    };
    w.function_attrs();
    if !func.regions.contains(func.body) {
        w.func_error(format!(
            "body region {} is out of range ({} regions)",
            func.body.index(),
            func.regions.len()
        ));
        return None;
    }
    w.layout.owner[func.body.index()] = Some(Owner::Body);
    w.walk();
    Some(w.layout)
}

struct Walker<'a, 'e> {
    module: &'a Module,
    func: &'a Function,
    errors: &'e mut Vec<VerifyError>,
    layout: Layout,
}

impl Walker<'_, '_> {
    fn func_error(&mut self, message: String) {
        let mut e = located(self.module, self.func.loc, message);
        e.function = Some(self.func.name.clone());
        self.errors.push(e);
    }

    fn op_error(&mut self, op: Op, data: &OpData, message: String) {
        let mut e = located(self.module, data.loc, message);
        e.function = Some(self.func.name.clone());
        e.op = Some(op);
        e.mnemonic = Some(data.kind.mnemonic());
        self.errors.push(e);
    }

    /// True if `ty` is in the module's type table.
    fn type_in_range(&self, ty: TypeId) -> bool {
        self.module.types.contains(ty)
    }

    fn bad_type(&self, ty: TypeId) -> String {
        format!(
            "type handle {} is out of range ({} types)",
            ty.index(),
            self.module.types.len()
        )
    }

    fn function_attrs(&mut self) {
        for i in 0..self.func.results.len() {
            let ty = self.func.results[i];
            if !self.type_in_range(ty) {
                let m = format!("result {i}: {}", self.bad_type(ty));
                self.func_error(m);
            }
        }
        for i in 0..self.func.params.len() {
            if let Some(ty) = self.func.params[i].byval {
                if !self.type_in_range(ty) {
                    let m = format!("byval type of parameter {i}: {}", self.bad_type(ty));
                    self.func_error(m);
                }
            }
        }
    }

    /// Depth-first walk of the region tree with an explicit stack, so deep
    /// nesting cannot overflow the call stack.
    fn walk(&mut self) {
        let body = self.func.body;
        self.region_args(body);
        self.layout.regions.push(body);
        let mut stack: Vec<(Region, usize)> = vec![(body, 0)];
        while let Some((region, pos)) = stack.pop() {
            let ops = &self.func.regions[region].ops;
            let Some(&op) = ops.get(pos) else {
                continue;
            };
            stack.push((region, pos + 1));
            let Some(data) = self.func.ops.try_get(op) else {
                self.func_error(format!(
                    "op handle {} at position {pos} of region {} is out of range ({} ops)",
                    op.index(),
                    region.index(),
                    self.func.ops.len()
                ));
                continue;
            };
            if let Some((other, other_pos)) = self.layout.place(op) {
                self.op_error(
                    op,
                    data,
                    format!(
                        "op {} appears twice: at position {other_pos} of region {} and at \
                         position {pos} of region {}",
                        op.index(),
                        other.index(),
                        region.index()
                    ),
                );
                continue;
            }
            self.layout.place[op.index()] = Some((region, pos));
            self.layout.order.push(op);
            self.op(op, data);
            // Push the op's regions so the first one is walked first.
            let mut nested = Vec::new();
            for (index, &r) in data.regions.iter().enumerate() {
                if !self.func.regions.contains(r) {
                    self.op_error(
                        op,
                        data,
                        format!(
                            "region {index}: region handle {} is out of range ({} regions)",
                            r.index(),
                            self.func.regions.len()
                        ),
                    );
                    continue;
                }
                if let Some(owner) = self.layout.owner(r) {
                    let held = match owner {
                        Owner::Body => "is the function body".to_string(),
                        Owner::Op { op: o, index: i } => {
                            format!("is already region {i} of op {}", o.index())
                        }
                    };
                    self.op_error(
                        op,
                        data,
                        format!("region {index} (region {}) {held}", r.index()),
                    );
                    continue;
                }
                self.layout.owner[r.index()] = Some(Owner::Op { op, index });
                self.layout.regions.push(r);
                self.region_args(r);
                nested.push((r, 0));
            }
            stack.extend(nested.into_iter().rev());
        }
    }

    /// Checks the argument values of a region that was just reached.
    fn region_args(&mut self, region: Region) {
        let args = &self.func.regions[region].args;
        for (i, &v) in args.iter().enumerate() {
            let expected = ValueDef::Arg {
                region,
                index: i as u32,
            };
            if let Some(m) = self.value(v, expected) {
                self.func_error(format!("argument {i} of region {}: {m}", region.index()));
            }
        }
    }

    /// Checks a value that appears as `expected`; returns what is wrong.
    fn value(&mut self, v: Value, expected: ValueDef) -> Option<String> {
        let Some(data) = self.func.values.try_get(v) else {
            return Some(format!(
                "value handle {} is out of range ({} values)",
                v.index(),
                self.func.values.len()
            ));
        };
        if data.def != expected {
            return Some(format!(
                "value {} records its definition as {}, but appears as {}",
                v.index(),
                describe_def(data.def),
                describe_def(expected)
            ));
        }
        if !self.module.types.contains(data.ty) {
            return Some(format!("value {}: {}", v.index(), self.bad_type(data.ty)));
        }
        None
    }

    fn op(&mut self, op: Op, data: &OpData) {
        for (i, &v) in data.results.iter().enumerate() {
            let expected = ValueDef::Result {
                op,
                index: i as u32,
            };
            if let Some(m) = self.value(v, expected) {
                self.op_error(op, data, format!("result {i}: {m}"));
            }
        }
        for (i, &v) in data.operands.iter().enumerate() {
            // Where the operand is defined is the business of `dominance`;
            // its type must be readable either way.
            let m = match self.func.values.try_get(v) {
                None => format!(
                    "operand {i}: value handle {} is out of range ({} values)",
                    v.index(),
                    self.func.values.len()
                ),
                Some(d) if !self.type_in_range(d.ty) => {
                    format!("operand {i}: value {}: {}", v.index(), self.bad_type(d.ty))
                }
                Some(_) => continue,
            };
            self.op_error(op, data, m);
        }
        let ty = match &data.kind {
            OpKind::Alloca { ty, .. } | OpKind::PtrField { ty, .. } => Some(*ty),
            OpKind::PtrIndex { elem } => Some(*elem),
            _ => None,
        };
        if let Some(ty) = ty.filter(|&t| !self.module.types.contains(t)) {
            let m = format!("attribute {}", self.bad_type(ty));
            self.op_error(op, data, m);
        }
        match &data.kind {
            OpKind::GlobalAddr(g) | OpKind::TexRef(g) if !self.module.globals.contains(*g) => {
                let m = format!(
                    "global handle {} is out of range ({} globals)",
                    g.index(),
                    self.module.globals.len()
                );
                self.op_error(op, data, m);
            }
            OpKind::Call(Callee::Func(f)) if !self.module.functions.contains(*f) => {
                let m = format!(
                    "function handle {} is out of range ({} functions)",
                    f.index(),
                    self.module.functions.len()
                );
                self.op_error(op, data, m);
            }
            _ => {}
        }
    }
}

fn describe_def(def: ValueDef) -> String {
    match def {
        ValueDef::Result { op, index } => format!("result {index} of op {}", op.index()),
        ValueDef::Arg { region, index } => {
            format!("argument {index} of region {}", region.index())
        }
    }
}
