//! Modules: types, globals and functions of one translation unit.

use crate::arena::{Arena, Handle};
use crate::func::Function;
use crate::loc::Loc;
use crate::types::{Space, TypeId, Types};

/// Handle of a module global.
pub type GlobalId = Handle<Global>;
/// Handle of a module function.
pub type FuncId = Handle<Function>;

/// What a global is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GlobalKind {
    /// Storage: a `__device__`, `__constant__` or static `__shared__` variable.
    Variable,
    /// A legacy texture reference (`texture<T, dims>`); `ty` is the element
    /// type read through it. Its handle is taken with `tex.ref` and resolved
    /// by the runtime to whatever the host bound to it.
    Texture {
        /// 1, 2 or 3.
        dims: u8,
    },
}

/// How a global or function relates to other translation units. Only
/// separately compiled device code (`-rdc=true`) uses anything but
/// `Internal`; the device link step resolves `Import`s (docs/ir.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Linkage {
    /// Private to this module (the default; `static` in the emitted C).
    #[default]
    Internal,
    /// Defined here and visible to other translation units.
    External,
    /// Declared here, defined by another translation unit: a global without
    /// storage, or a function without a body.
    Import,
}

impl Linkage {
    /// The text-format keyword (`Internal` has none).
    pub fn keyword(self) -> Option<&'static str> {
        match self {
            Linkage::Internal => None,
            Linkage::External => Some("external"),
            Linkage::Import => Some("import"),
        }
    }
}

/// A module-level variable or texture reference.
#[derive(Clone, Debug, PartialEq)]
pub struct Global {
    /// Symbol name (mangled as the device compiler registers it).
    pub name: String,
    /// The stored type.
    pub ty: TypeId,
    /// Global, constant or shared. Shared globals have one instance per block.
    pub space: Space,
    /// Initial bytes (`size_of(ty)` of them); zero-filled when `None`.
    pub init: Option<Vec<u8>>,
    /// Variable or texture reference.
    pub kind: GlobalKind,
    /// A `__managed__` variable: one storage shared by host and device code.
    /// Kernels see no difference; the C emitter reaches it through a pointer
    /// the runtime redirects to the host program's copy (docs/abi.md).
    pub managed: bool,
    /// Visibility to other translation units.
    pub linkage: Linkage,
    /// Where it was declared.
    pub loc: Loc,
}

impl Global {
    /// A variable `name` of type `ty` in `space`: zero-filled, not managed,
    /// with the default linkage and no source location. Texture references,
    /// initialised data and the like start from it with struct update syntax.
    pub fn new(name: impl Into<String>, ty: TypeId, space: Space) -> Global {
        Global {
            name: name.into(),
            ty,
            space,
            init: None,
            kind: GlobalKind::Variable,
            managed: false,
            linkage: Linkage::default(),
            loc: Loc::UNKNOWN,
        }
    }
}

/// A translation unit's device side.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Module {
    /// Source file names; [`Loc::file`] indexes this table.
    pub files: Vec<String>,
    /// Interned types.
    pub types: Types,
    /// Globals in declaration order.
    pub globals: Arena<Global>,
    /// Functions in definition order.
    pub functions: Arena<Function>,
}

impl Module {
    /// An empty module.
    pub fn new() -> Self {
        Self::default()
    }

    /// The index of `name` in the file table, adding it if new.
    pub fn file_id(&mut self, name: &str) -> u32 {
        if let Some(i) = self.files.iter().position(|f| f == name) {
            return i as u32;
        }
        self.files.push(name.to_string());
        (self.files.len() - 1) as u32
    }

    /// The function called `name`.
    pub fn function(&self, name: &str) -> Option<FuncId> {
        self.functions
            .iter()
            .find(|(_, f)| f.name == name)
            .map(|(h, _)| h)
    }

    /// The global called `name`.
    pub fn global(&self, name: &str) -> Option<GlobalId> {
        self.globals
            .iter()
            .find(|(_, g)| g.name == name)
            .map(|(h, _)| h)
    }

    /// Adds a function and returns its handle.
    pub fn add_function(&mut self, f: Function) -> FuncId {
        self.functions.append(f)
    }

    /// Adds a global and returns its handle.
    pub fn add_global(&mut self, g: Global) -> GlobalId {
        self.globals.append(g)
    }

    /// `file:line:col` for a location, for messages.
    pub fn describe_loc(&self, loc: Loc) -> String {
        if loc.is_unknown() {
            return "<unknown>".to_string();
        }
        let file = self
            .files
            .get(loc.file as usize)
            .map(String::as_str)
            .unwrap_or("<unknown>");
        format!("{file}:{}:{}", loc.line, loc.col)
    }
}
