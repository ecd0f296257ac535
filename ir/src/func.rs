//! Functions: their ops, values and regions.
//!
//! A function owns three arenas. `ops` and `values` say *what* exists;
//! regions say *where*: each region is an ordered list of op handles, so a
//! pass moves code by editing lists, never operands. A region is a single
//! block with arguments, ended by a terminator (`yield`, `condition` or
//! `return`). The function body is a region whose arguments are the
//! function's parameters.

use crate::arena::{Arena, Handle, SecondaryMap};
use crate::loc::Loc;
use crate::ops::OpKind;
use crate::types::TypeId;

/// Handle of an op within its function.
pub type Op = Handle<OpData>;
/// Handle of an SSA value within its function.
pub type Value = Handle<ValueData>;
/// Handle of a region within its function.
pub type Region = Handle<RegionData>;

/// Where a value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueDef {
    /// The `index`-th result of `op`.
    Result {
        /// Defining op.
        op: Op,
        /// Result position.
        index: u32,
    },
    /// The `index`-th argument of `region`.
    Arg {
        /// Owning region.
        region: Region,
        /// Argument position.
        index: u32,
    },
}

/// An SSA value: its type, definition and optional source name.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueData {
    /// The value's (scalar) type.
    pub ty: TypeId,
    /// Its definition.
    pub def: ValueDef,
    /// A source-level name used by printers and the C emitter, when known.
    pub name: Option<String>,
}

/// An op: kind, operands, results, regions and source location.
#[derive(Clone, Debug, PartialEq)]
pub struct OpData {
    /// Opcode and attributes.
    pub kind: OpKind,
    /// Operand values, in the order the kind documents.
    pub operands: Vec<Value>,
    /// Result values.
    pub results: Vec<Value>,
    /// Nested regions, owned by this op.
    pub regions: Vec<Region>,
    /// Source location.
    pub loc: Loc,
}

/// A single-block region: arguments and an ordered list of ops.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RegionData {
    /// Block arguments (loop induction variables, carried values, params).
    pub args: Vec<Value>,
    /// Ops in execution order; the last one is the terminator.
    pub ops: Vec<Op>,
}

/// What a function is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FunctionKind {
    /// A `__global__` kernel in per-thread form: the body is what one thread
    /// runs; thread and block ids are read with `thread_id`/`block_id`.
    Kernel,
    /// A `__device__` function, called from kernels or other device functions.
    Device,
    /// A kernel in launch form: the body runs once per launch and spells the
    /// grid and block loops out as `parallel` ops (after `lower-launch`).
    /// Block ids and thread ids are the ivs of those loops.
    Launch,
}

impl FunctionKind {
    /// The text-format keyword.
    pub fn name(self) -> &'static str {
        match self {
            FunctionKind::Kernel => "kernel",
            FunctionKind::Device => "device",
            FunctionKind::Launch => "launch",
        }
    }

    /// Parses a keyword.
    pub fn from_name(s: &str) -> Option<FunctionKind> {
        [
            FunctionKind::Kernel,
            FunctionKind::Device,
            FunctionKind::Launch,
        ]
        .into_iter()
        .find(|k| k.name() == s)
    }
}

/// Attributes of a parameter.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParamAttrs {
    /// `__restrict__`: nothing else accessed by the function aliases it.
    pub noalias: bool,
    /// The parameter is a pointer to a private copy of an aggregate of this
    /// type that the caller passes by value (kernel structs, C byval).
    pub byval: Option<TypeId>,
}

/// A function.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    /// Symbol name (the mangled device name for kernels).
    pub name: String,
    /// Kernel, device function or launch form.
    pub kind: FunctionKind,
    /// Per-parameter attributes, parallel to the body's arguments.
    pub params: Vec<ParamAttrs>,
    /// Result types (zero or one in practice).
    pub results: Vec<TypeId>,
    /// The body; its arguments are the parameters.
    pub body: Region,
    /// Every op ever created in this function.
    pub ops: Arena<OpData>,
    /// Every value ever created in this function.
    pub values: Arena<ValueData>,
    /// Every region ever created in this function.
    pub regions: Arena<RegionData>,
    /// Source location of the definition.
    pub loc: Loc,
    /// Visibility to other translation units; an `Import` has an empty body
    /// (its region has the parameters as arguments and no ops).
    pub linkage: crate::module::Linkage,
}

impl Function {
    /// A function with an empty body region whose arguments have `param_types`.
    pub fn new(name: &str, kind: FunctionKind, param_types: &[TypeId], results: &[TypeId]) -> Self {
        let mut f = Function {
            name: name.to_string(),
            kind,
            params: vec![ParamAttrs::default(); param_types.len()],
            results: results.to_vec(),
            body: Handle::new(0),
            ops: Arena::new(),
            values: Arena::new(),
            regions: Arena::new(),
            loc: Loc::UNKNOWN,
            linkage: crate::module::Linkage::Internal,
        };
        f.body = f.new_region(param_types);
        f
    }

    /// Creates a detached region with arguments of the given types.
    pub fn new_region(&mut self, arg_types: &[TypeId]) -> Region {
        let region = self.regions.append(RegionData::default());
        let args = self.fresh_values(arg_types, |index| ValueDef::Arg { region, index });
        self.regions[region].args = args;
        region
    }

    /// New unnamed values of `types`, the `i`-th defined by `def(i)`.
    fn fresh_values(&mut self, types: &[TypeId], def: impl Fn(u32) -> ValueDef) -> Vec<Value> {
        types
            .iter()
            .enumerate()
            .map(|(i, &ty)| {
                self.values.append(ValueData {
                    ty,
                    def: def(i as u32),
                    name: None,
                })
            })
            .collect()
    }

    /// Creates a detached op with fresh results of the given types; the
    /// caller places it in a region's op list.
    pub fn new_op(
        &mut self,
        kind: OpKind,
        operands: Vec<Value>,
        result_types: &[TypeId],
        regions: Vec<Region>,
        loc: Loc,
    ) -> Op {
        let op = self.ops.append(OpData {
            kind,
            operands,
            results: Vec::new(),
            regions,
            loc,
        });
        let results = self.fresh_values(result_types, |index| ValueDef::Result { op, index });
        self.ops[op].results = results;
        op
    }

    /// The parameters (the body's arguments).
    pub fn param_values(&self) -> &[Value] {
        &self.regions[self.body].args
    }

    /// The type of a value.
    pub fn value_type(&self, v: Value) -> TypeId {
        self.values[v].ty
    }

    /// The op defining `v`, if it is an op result.
    pub fn defining_op(&self, v: Value) -> Option<Op> {
        match self.values[v].def {
            ValueDef::Result { op, .. } => Some(op),
            ValueDef::Arg { .. } => None,
        }
    }

    /// The bits of `v` if a `const` defines it.
    pub fn const_bits(&self, v: Value) -> Option<u64> {
        match self.ops[self.defining_op(v)?].kind {
            crate::ops::OpKind::Const { bits } => Some(bits),
            _ => None,
        }
    }

    /// The single result of `op`.
    ///
    /// # Panics
    /// If the op does not have exactly one result.
    pub fn result(&self, op: Op) -> Value {
        let r = &self.ops[op].results;
        assert_eq!(r.len(), 1, "op {op:?} does not have exactly one result");
        r[0]
    }

    /// Every op reachable from the body, in pre-order (an op before the ops
    /// of its regions), with the region that holds it.
    pub fn walk(&self) -> Vec<(Region, Op)> {
        let mut out = Vec::new();
        self.walk_region(self.body, &mut out);
        out
    }

    /// Pre-order walk of one region (see [`Function::walk`]).
    pub fn walk_region(&self, region: Region, out: &mut Vec<(Region, Op)>) {
        for &op in &self.regions[region].ops {
            out.push((region, op));
            for &r in &self.ops[op].regions {
                self.walk_region(r, out);
            }
        }
    }

    /// Computes the parent links of the ops and regions reachable from the body.
    pub fn parents(&self) -> Parents {
        let mut p = Parents {
            op_region: SecondaryMap::with_default(None),
            region_op: SecondaryMap::with_default(None),
        };
        for (region, op) in self.walk() {
            p.op_region.set(op, Some(region));
            for &r in &self.ops[op].regions {
                p.region_op.set(r, Some(op));
            }
        }
        p
    }
}

/// Parent links of a function's ops and regions, computed by
/// [`Function::parents`]; stale once the function is edited.
#[derive(Clone, Debug)]
pub struct Parents {
    op_region: SecondaryMap<Op, Option<Region>>,
    region_op: SecondaryMap<Region, Option<Op>>,
}

impl Parents {
    /// The region holding `op` (`None` for detached ops).
    pub fn region_of(&self, op: Op) -> Option<Region> {
        *self.op_region.get(op)
    }

    /// The op owning `region` (`None` for the body and detached regions).
    pub fn op_of(&self, region: Region) -> Option<Op> {
        *self.region_op.get(region)
    }

    /// The op whose region holds `op`.
    pub fn parent_op(&self, op: Op) -> Option<Op> {
        self.region_of(op).and_then(|r| self.op_of(r))
    }

    /// `op`'s enclosing ops, innermost first.
    pub fn ancestors(&self, op: Op) -> Vec<Op> {
        let mut out = Vec::new();
        let mut cur = self.parent_op(op);
        while let Some(p) = cur {
            out.push(p);
            cur = self.parent_op(p);
        }
        out
    }
}
