//! IR types, interned per module, with their memory layout.
//!
//! Scalars (integers, floats, pointers) are the only types an SSA value can
//! have. Arrays and structs exist in memory only: they are what `alloca`
//! allocates, what `ptr.index`/`ptr.field` step through and what globals hold.
//! Integers are signless; the ops that care say whether they read them as
//! signed or unsigned. Pointers are opaque (no pointee type) but carry the
//! memory space they point into.

use crate::arena::{Arena, Handle};
use std::collections::HashMap;
use std::fmt;

/// Handle of an interned [`Type`].
pub type TypeId = Handle<Type>;

/// A memory space, as in CUDA/PTX state spaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Space {
    /// Per-thread memory (C locals, spilled arrays).
    Private,
    /// Per-block memory (`__shared__`).
    Shared,
    /// Device memory visible to every thread (`cudaMalloc`, `__device__`).
    Global,
    /// Read-only device memory (`__constant__`).
    Constant,
    /// A pointer that may point into any of the above.
    Generic,
}

impl Space {
    /// All spaces, in printing order.
    pub const ALL: [Space; 5] = [
        Space::Private,
        Space::Shared,
        Space::Global,
        Space::Constant,
        Space::Generic,
    ];

    /// The keyword used by the text format.
    pub fn name(self) -> &'static str {
        match self {
            Space::Private => "private",
            Space::Shared => "shared",
            Space::Global => "global",
            Space::Constant => "constant",
            Space::Generic => "generic",
        }
    }

    /// Parses a keyword of the text format.
    pub fn from_name(s: &str) -> Option<Space> {
        Space::ALL.into_iter().find(|sp| sp.name() == s)
    }
}

impl fmt::Display for Space {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Floating-point formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FloatKind {
    /// IEEE binary16 (`half`).
    F16,
    /// bfloat16 (`__nv_bfloat16`).
    BF16,
    /// IEEE binary32.
    F32,
    /// IEEE binary64.
    F64,
}

impl FloatKind {
    /// Size in bytes.
    pub fn bytes(self) -> u64 {
        match self {
            FloatKind::F16 | FloatKind::BF16 => 2,
            FloatKind::F32 => 4,
            FloatKind::F64 => 8,
        }
    }

    /// The text-format keyword.
    pub fn name(self) -> &'static str {
        match self {
            FloatKind::F16 => "f16",
            FloatKind::BF16 => "bf16",
            FloatKind::F32 => "f32",
            FloatKind::F64 => "f64",
        }
    }
}

/// A field of a struct: its type and byte offset from the start of the struct.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Field {
    /// Source name, or empty when unnamed.
    pub name: String,
    /// The field's type.
    pub ty: TypeId,
    /// Byte offset from the start of the struct.
    pub offset: u64,
}

/// A struct (or union: all fields at offset 0) with an explicit layout.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StructType {
    /// Unique name within the module (the source name where there is one).
    pub name: String,
    /// Fields in declaration order.
    pub fields: Vec<Field>,
    /// Size in bytes, including tail padding.
    pub size: u64,
    /// Alignment in bytes (a power of two).
    pub align: u64,
}

/// An IR type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// A signless integer of 1, 8, 16, 32 or 64 bits. `i1` is the boolean.
    Int(u8),
    /// A floating-point number.
    Float(FloatKind),
    /// An opaque pointer into a memory space.
    Ptr(Space),
    /// `len` elements of `elem`, each `size_of(elem)` bytes apart.
    Array {
        /// Element type.
        elem: TypeId,
        /// Number of elements.
        len: u64,
    },
    /// A struct or union.
    Struct(StructType),
}

impl Type {
    /// True for integers, floats and pointers: the types SSA values can have.
    pub fn is_scalar(&self) -> bool {
        matches!(self, Type::Int(_) | Type::Float(_) | Type::Ptr(_))
    }

    /// True for any integer type, `i1` included.
    pub fn is_int(&self) -> bool {
        matches!(self, Type::Int(_))
    }

    /// True for any float type.
    pub fn is_float(&self) -> bool {
        matches!(self, Type::Float(_))
    }

    /// True for pointers.
    pub fn is_ptr(&self) -> bool {
        matches!(self, Type::Ptr(_))
    }

    /// Bit width of an integer type.
    pub fn int_bits(&self) -> Option<u8> {
        match self {
            Type::Int(b) => Some(*b),
            _ => None,
        }
    }

    /// The float format of a float type.
    pub fn float_kind(&self) -> Option<FloatKind> {
        match self {
            Type::Float(k) => Some(*k),
            _ => None,
        }
    }

    /// The memory space of a pointer type.
    pub fn ptr_space(&self) -> Option<Space> {
        match self {
            Type::Ptr(s) => Some(*s),
            _ => None,
        }
    }
}

/// The valid integer widths.
pub const INT_WIDTHS: [u8; 5] = [1, 8, 16, 32, 64];

/// The module's type table: each distinct type is stored once.
#[derive(Clone, Debug, Default)]
pub struct Types {
    arena: Arena<Type>,
    lookup: HashMap<Type, TypeId>,
}

impl PartialEq for Types {
    fn eq(&self, other: &Self) -> bool {
        self.arena == other.arena
    }
}

impl Types {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// Interns `ty`, returning the existing handle if it is already present.
    pub fn insert(&mut self, ty: Type) -> TypeId {
        if let Some(&id) = self.lookup.get(&ty) {
            return id;
        }
        let id = self.arena.append(ty.clone());
        self.lookup.insert(ty, id);
        id
    }

    /// The handle of `ty` if it is interned.
    pub fn find(&self, ty: &Type) -> Option<TypeId> {
        self.lookup.get(ty).copied()
    }

    /// The struct type called `name`, if any.
    pub fn find_struct(&self, name: &str) -> Option<TypeId> {
        self.arena
            .iter()
            .find(|(_, t)| matches!(t, Type::Struct(s) if s.name == name))
            .map(|(h, _)| h)
    }

    /// All types in interning order.
    pub fn iter(&self) -> impl Iterator<Item = (TypeId, &Type)> {
        self.arena.iter()
    }

    /// Number of interned types.
    pub fn len(&self) -> usize {
        self.arena.len()
    }

    /// True if no type was interned.
    pub fn is_empty(&self) -> bool {
        self.arena.is_empty()
    }

    /// True if `id` belongs to this table.
    pub fn contains(&self, id: TypeId) -> bool {
        self.arena.contains(id)
    }

    /// `iN`.
    pub fn int(&mut self, bits: u8) -> TypeId {
        self.insert(Type::Int(bits))
    }
    /// `i1`.
    pub fn i1(&mut self) -> TypeId {
        self.int(1)
    }
    /// `i8`.
    pub fn i8(&mut self) -> TypeId {
        self.int(8)
    }
    /// `i16`.
    pub fn i16(&mut self) -> TypeId {
        self.int(16)
    }
    /// `i32`.
    pub fn i32(&mut self) -> TypeId {
        self.int(32)
    }
    /// `i64`.
    pub fn i64(&mut self) -> TypeId {
        self.int(64)
    }
    /// A float type.
    pub fn float(&mut self, kind: FloatKind) -> TypeId {
        self.insert(Type::Float(kind))
    }
    /// `f16`.
    pub fn f16(&mut self) -> TypeId {
        self.float(FloatKind::F16)
    }
    /// `bf16`.
    pub fn bf16(&mut self) -> TypeId {
        self.float(FloatKind::BF16)
    }
    /// `f32`.
    pub fn f32(&mut self) -> TypeId {
        self.float(FloatKind::F32)
    }
    /// `f64`.
    pub fn f64(&mut self) -> TypeId {
        self.float(FloatKind::F64)
    }
    /// `ptr<space>`.
    pub fn ptr(&mut self, space: Space) -> TypeId {
        self.insert(Type::Ptr(space))
    }
    /// `[len x elem]`.
    pub fn array(&mut self, elem: TypeId, len: u64) -> TypeId {
        self.insert(Type::Array { elem, len })
    }

    /// A struct laid out by the C rules (each field at the next offset
    /// aligned to its alignment; size rounded up to the struct alignment).
    pub fn c_struct(&mut self, name: &str, fields: &[(&str, TypeId)]) -> TypeId {
        let mut offset = 0;
        let mut align = 1;
        let mut out = Vec::with_capacity(fields.len());
        for (fname, ty) in fields {
            let a = self.align_of(*ty);
            offset = round_up(offset, a);
            out.push(Field {
                name: (*fname).to_string(),
                ty: *ty,
                offset,
            });
            offset += self.size_of(*ty);
            align = align.max(a);
        }
        self.insert(Type::Struct(StructType {
            name: name.to_string(),
            fields: out,
            size: round_up(offset, align),
            align,
        }))
    }

    /// Size in bytes (`i1` occupies one byte in memory; pointers are 8 bytes).
    pub fn size_of(&self, id: TypeId) -> u64 {
        match &self[id] {
            Type::Int(bits) => u64::from(*bits).div_ceil(8),
            Type::Float(k) => k.bytes(),
            Type::Ptr(_) => 8,
            Type::Array { elem, len } => self.size_of(*elem).saturating_mul(*len),
            Type::Struct(s) => s.size,
        }
    }

    /// Alignment in bytes.
    pub fn align_of(&self, id: TypeId) -> u64 {
        match &self[id] {
            Type::Int(_) | Type::Float(_) | Type::Ptr(_) => self.size_of(id).max(1),
            Type::Array { elem, .. } => self.align_of(*elem),
            Type::Struct(s) => s.align.max(1),
        }
    }

    /// A display adaptor printing the type in the text format.
    pub fn display(&self, id: TypeId) -> TypeDisplay<'_> {
        TypeDisplay { types: self, id }
    }
}

impl std::ops::Index<TypeId> for Types {
    type Output = Type;
    fn index(&self, id: TypeId) -> &Type {
        &self.arena[id]
    }
}

/// Rounds `x` up to a multiple of `align` (a power of two, or 0/1 for no-op).
pub fn round_up(x: u64, align: u64) -> u64 {
    if align <= 1 {
        x
    } else {
        x.div_ceil(align) * align
    }
}

/// Prints a type reference as the text format spells it: `i32`, `f32`,
/// `ptr<global>`, `[4 x f32]`, `$Name` for structs.
pub struct TypeDisplay<'a> {
    types: &'a Types,
    id: TypeId,
}

impl fmt::Display for TypeDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.types.arena.try_get(self.id) {
            None => write!(f, "<bad type {:?}>", self.id),
            Some(Type::Int(b)) => write!(f, "i{b}"),
            Some(Type::Float(k)) => f.write_str(k.name()),
            Some(Type::Ptr(s)) => write!(f, "ptr<{s}>"),
            Some(Type::Array { elem, len }) => {
                write!(f, "[{len} x {}]", self.types.display(*elem))
            }
            Some(Type::Struct(s)) => write!(f, "${}", s.name),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interning_and_layout() {
        let mut t = Types::new();
        let a = t.i32();
        let b = t.i32();
        assert_eq!(a, b);
        let f = t.f32();
        let d = t.f64();
        let c8 = t.i8();
        let s = t.c_struct("S", &[("c", c8), ("d", d), ("f", f)]);
        assert_eq!(t.size_of(s), 24);
        assert_eq!(t.align_of(s), 8);
        let Type::Struct(st) = &t[s] else {
            panic!("not a struct")
        };
        assert_eq!(
            st.fields.iter().map(|x| x.offset).collect::<Vec<_>>(),
            vec![0, 8, 16]
        );
        let arr = t.array(s, 3);
        assert_eq!(t.size_of(arr), 72);
        assert_eq!(t.display(arr).to_string(), "[3 x $S]");
        let p = t.ptr(Space::Shared);
        assert_eq!(t.display(p).to_string(), "ptr<shared>");
        let one = t.i1();
        assert_eq!(t.size_of(one), 1);
    }
}
