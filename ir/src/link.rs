//! Device linking of separately compiled translation units (`-rdc=true`).
//!
//! Every translation unit keeps its own device object (its kernels are
//! registered under its own module id), so linking does not merge modules:
//! it completes one. [`resolve_imports`] gives each imported function of a
//! unit the body of the external definition another unit provides, copying
//! the functions that body calls and declaring the variables it uses as
//! imports. Device functions are inlined by cpuify anyway, so copying them
//! costs nothing at run time; variables are shared through the C linker
//! (an external variable's storage is one C symbol), so copies never split
//! a variable in two.
//!
//! What cannot be shared is refused rather than miscompiled: a copied
//! function that uses a writable variable internal to its own unit (a
//! `static __device__` variable, a texture reference) is an error.

use crate::func::{Function, FunctionKind};
use crate::module::{FuncId, Global, GlobalId, GlobalKind, Linkage, Module};
use crate::ops::{Callee, OpKind};
use crate::types::{Field, Space, StructType, Type, TypeId};
use std::collections::HashMap;
use std::fmt;

/// A device-link failure, naming the symbol and the units involved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkError(pub String);

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LinkError {}

/// One translation unit taking part in a device link.
#[derive(Clone, Copy, Debug)]
pub struct Unit<'a> {
    /// How errors name it (its source or object file).
    pub name: &'a str,
    /// Its device module.
    pub module: &'a Module,
}

/// Gives every imported function of `module` (the unit called `name`) the
/// body of the external device function of that name in `units` (the other
/// units; a unit may also be listed that is `module` itself, it is skipped
/// by name). Functions the copied bodies call come along; variables they use
/// become imports of `module`.
pub fn resolve_imports(
    module: &mut Module,
    name: &str,
    units: &[Unit<'_>],
) -> Result<(), LinkError> {
    let mut cx = Linker {
        dst: module,
        dst_name: name,
        units,
        types: HashMap::new(),
        globals: HashMap::new(),
        funcs: HashMap::new(),
        files: HashMap::new(),
    };
    let imports: Vec<String> = cx
        .dst
        .functions
        .iter()
        .filter(|(_, f)| f.linkage == Linkage::Import)
        .map(|(_, f)| f.name.clone())
        .collect();
    for import in imports {
        cx.resolve_function(&import, None)?;
    }
    Ok(())
}

/// True for names the C++ ABI gives internal linkage (`static`, anonymous
/// namespaces): such an entity of one unit is never another unit's.
pub fn is_internal_name(name: &str) -> bool {
    name.starts_with("_ZL") || name.contains("_GLOBAL__N_")
}

struct Linker<'a, 'm> {
    dst: &'m mut Module,
    dst_name: &'a str,
    units: &'a [Unit<'a>],
    types: HashMap<(usize, TypeId), TypeId>,
    globals: HashMap<(usize, GlobalId), GlobalId>,
    funcs: HashMap<(usize, FuncId), FuncId>,
    files: HashMap<(usize, u32), u32>,
}

impl Linker<'_, '_> {
    /// The unit defining external device function `name`, and the function.
    fn definition(&self, name: &str) -> Option<(usize, FuncId)> {
        self.units.iter().enumerate().find_map(|(i, u)| {
            if u.name == self.dst_name && std::ptr::eq(u.module, &*self.dst) {
                return None;
            }
            let id = u.module.function(name)?;
            let f = &u.module.functions[id];
            (f.linkage == Linkage::External && f.kind == FunctionKind::Device).then_some((i, id))
        })
    }

    /// Makes `name` (imported by `dst`, or called by a copied body from unit
    /// `from`) a defined function of `dst`; returns its handle there.
    fn resolve_function(&mut self, name: &str, from: Option<usize>) -> Result<FuncId, LinkError> {
        if let Some(id) = self.dst.function(name) {
            if self.dst.functions[id].linkage != Linkage::Import {
                return Ok(id);
            }
        }
        let Some((unit, src)) = self.definition(name) else {
            let user = from.map_or(self.dst_name, |u| self.units[u].name);
            return Err(LinkError(format!(
                "{user}: undefined device function `{name}` (no translation unit of the device link defines it)"
            )));
        };
        self.copy_function(unit, src)
    }

    /// Copies function `src` of `unit` into `dst` (filling in a declaration
    /// of the same name when there is one).
    fn copy_function(&mut self, unit: usize, src: FuncId) -> Result<FuncId, LinkError> {
        if let Some(&id) = self.funcs.get(&(unit, src)) {
            return Ok(id);
        }
        let sm = self.units[unit].module;
        let sf = &sm.functions[src];
        let mut f: Function = sf.clone();
        f.linkage = Linkage::Internal;
        // Reserve the slot first so recursive references resolve to it.
        let id = match self.dst.function(&sf.name) {
            Some(id) if self.dst.functions[id].linkage == Linkage::Import => id,
            Some(_) => {
                f.name = self.fresh_function_name(&sf.name, unit);
                self.dst
                    .add_function(Function::new(&f.name, FunctionKind::Device, &[], &[]))
            }
            None => self
                .dst
                .add_function(Function::new(&f.name, FunctionKind::Device, &[], &[])),
        };
        self.funcs.insert((unit, src), id);
        // Types of values, parameters and results.
        for r in f.results.iter_mut() {
            *r = self.map_type(unit, *r);
        }
        for p in f.params.iter_mut() {
            if let Some(t) = p.byval {
                p.byval = Some(self.map_type(unit, t));
            }
        }
        let value_ids: Vec<_> = f.values.handles().collect();
        for v in value_ids {
            let t = f.values[v].ty;
            f.values[v].ty = self.map_type(unit, t);
        }
        f.loc = self.map_loc(unit, f.loc);
        let op_ids: Vec<_> = f.ops.handles().collect();
        for op in op_ids {
            f.ops[op].loc = self.map_loc(unit, f.ops[op].loc);
            let kind = f.ops[op].kind.clone();
            let new_kind = match kind {
                OpKind::Alloca { space, ty } => OpKind::Alloca {
                    space,
                    ty: self.map_type(unit, ty),
                },
                OpKind::PtrIndex { elem } => OpKind::PtrIndex {
                    elem: self.map_type(unit, elem),
                },
                OpKind::PtrField { ty, field } => OpKind::PtrField {
                    ty: self.map_type(unit, ty),
                    field,
                },
                OpKind::GlobalAddr(g) => OpKind::GlobalAddr(self.map_global(unit, g, &sf.name)?),
                OpKind::TexRef(g) => OpKind::TexRef(self.map_global(unit, g, &sf.name)?),
                OpKind::Call(Callee::Func(c)) => {
                    let callee = &sm.functions[c];
                    let target = if callee.linkage == Linkage::Internal {
                        self.copy_function(unit, c)?
                    } else {
                        let name = callee.name.clone();
                        self.resolve_function(&name, Some(unit))?
                    };
                    OpKind::Call(Callee::Func(target))
                }
                other => other,
            };
            f.ops[op].kind = new_kind;
        }
        self.dst.functions[id] = f;
        Ok(id)
    }

    fn fresh_function_name(&self, base: &str, unit: usize) -> String {
        let mut n = 0;
        loop {
            let candidate = format!("{base}.u{unit}.{n}");
            if self.dst.function(&candidate).is_none() {
                return candidate;
            }
            n += 1;
        }
    }

    /// The `dst` global standing for global `g` of `unit`, used by `user`.
    fn map_global(&mut self, unit: usize, g: GlobalId, user: &str) -> Result<GlobalId, LinkError> {
        if let Some(&id) = self.globals.get(&(unit, g)) {
            return Ok(id);
        }
        let sm = self.units[unit].module;
        let sg = &sm.globals[g];
        let existing = self
            .dst
            .globals
            .iter()
            .find(|(_, d)| d.name == sg.name)
            .map(|(id, _)| id);
        let read_only = sg.space == Space::Constant && sg.linkage == Linkage::Internal;
        let id = match (sg.linkage, sg.kind.clone()) {
            (Linkage::External | Linkage::Import, GlobalKind::Variable) => match existing {
                Some(id) if self.dst.globals[id].linkage != Linkage::Internal => id,
                Some(_) => {
                    return Err(LinkError(format!(
                        "{}: variable `{}` is internal here but external in {}",
                        self.dst_name, sg.name, self.units[unit].name
                    )))
                }
                None => {
                    let ty = self.map_type(unit, sg.ty);
                    let loc = self.map_loc(unit, sg.loc);
                    self.dst.add_global(Global {
                        managed: sg.managed,
                        linkage: Linkage::Import,
                        loc,
                        ..Global::new(sg.name.clone(), ty, sg.space)
                    })
                }
            },
            // Per-block storage and read-only data can be duplicated safely.
            (Linkage::Internal, GlobalKind::Variable) if sg.space == Space::Shared || read_only => {
                let ty = self.map_type(unit, sg.ty);
                let mut name = sg.name.clone();
                let mut n = 0;
                while self.dst.globals.iter().any(|(_, d)| d.name == name) {
                    name = format!("{}.u{unit}.{n}", sg.name);
                    n += 1;
                }
                let loc = self.map_loc(unit, sg.loc);
                self.dst.add_global(Global {
                    name,
                    ty,
                    space: sg.space,
                    init: sg.init.clone(),
                    kind: GlobalKind::Variable,
                    managed: false,
                    linkage: Linkage::Internal,
                    loc,
                })
            }
            _ => {
                return Err(LinkError(format!(
                    "{}: device function `{user}` uses `{}`, which is internal to {}; \
                     internal variables and texture references cannot be shared across translation units",
                    self.dst_name, sg.name, self.units[unit].name
                )))
            }
        };
        self.globals.insert((unit, g), id);
        Ok(id)
    }

    /// The `dst` type equal to type `t` of `unit`; a struct whose name is
    /// taken by a different struct is renamed.
    fn map_type(&mut self, unit: usize, t: TypeId) -> TypeId {
        if let Some(&id) = self.types.get(&(unit, t)) {
            return id;
        }
        let sm = self.units[unit].module;
        let ty = match &sm.types[t] {
            Type::Array { elem, len } => Type::Array {
                elem: self.map_type(unit, *elem),
                len: *len,
            },
            Type::Struct(s) => {
                let fields: Vec<Field> = s
                    .fields
                    .iter()
                    .map(|f| Field {
                        name: f.name.clone(),
                        ty: self.map_type(unit, f.ty),
                        offset: f.offset,
                    })
                    .collect();
                let mut st = StructType {
                    name: s.name.clone(),
                    fields,
                    size: s.size,
                    align: s.align,
                };
                let mut n = 0;
                while let Some(other) = self.dst.types.find_struct(&st.name) {
                    if self.dst.types[other] == Type::Struct(st.clone()) {
                        break;
                    }
                    st.name = format!("{}.u{unit}.{n}", s.name);
                    n += 1;
                }
                Type::Struct(st)
            }
            other => other.clone(),
        };
        let id = self.dst.types.insert(ty);
        self.types.insert((unit, t), id);
        id
    }

    fn map_loc(&mut self, unit: usize, loc: crate::Loc) -> crate::Loc {
        if loc.is_unknown() {
            return loc;
        }
        crate::Loc {
            file: self.map_file(unit, loc.file),
            ..loc
        }
    }

    fn map_file(&mut self, unit: usize, file: u32) -> u32 {
        if let Some(&f) = self.files.get(&(unit, file)) {
            return f;
        }
        let sm = self.units[unit].module;
        let Some(name) = sm.files.get(file as usize) else {
            return file;
        };
        let idx = match self.dst.files.iter().position(|f| f == name) {
            Some(i) => i as u32,
            None => {
                self.dst.files.push(name.clone());
                (self.dst.files.len() - 1) as u32
            }
        };
        self.files.insert((unit, file), idx);
        idx
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse_test_module as module;
    use crate::{print_module, verify_module};

    const USER: &str = "file \"a.cu\"
global @hits : i32 global import
import device @scale(%x: f32) -> (f32)
kernel @k(%p: ptr<global>) {
  %one = const 1.0 : f32
  %s = call @scale(%one) : f32
  store %p, %s
  %h = global.addr @hits : ptr<global>
  return
}
";

    const PROVIDER: &str = "file \"b.cu\"
type $Pair = struct size 8 align 4 { a: f32 at 0, b: f32 at 4 }
global @hits : i32 global external
global @_ZL5table : [2 x f32] constant = bytes \"0000803f00000040\"
global @_ZL7private : i32 global
device @_ZL5twice(%x: f32) -> (f32) {
  %r = fadd %x, %x : f32
  return %r
}
external device @scale(%x: f32) -> (f32) loc(0:9:1) {
  %t = call @_ZL5twice(%x) : f32
  %tab = global.addr @_ZL5table : ptr<constant>
  %v = load %tab : f32
  %s = fadd %t, %v : f32
  %h = global.addr @hits : ptr<global>
  %pair = alloca private $Pair : ptr<private>
  return %s
}
external device @peek() -> (i32) {
  %g = global.addr @_ZL7private : ptr<global>
  %v = load %g : i32
  return %v
}
";

    #[test]
    fn imports_get_bodies_callees_and_variables() {
        let mut a = module(USER);
        let b = module(PROVIDER);
        let units = [Unit {
            name: "b.cu",
            module: &b,
        }];
        resolve_imports(&mut a, "a.cu", &units).expect("links");
        verify_module(&a).expect("valid after linking");
        let text = print_module(&a);
        assert!(
            text.contains("device @scale(%x: f32) -> (f32) loc(1:9:1) {"),
            "{text}"
        );
        assert!(text.contains("device @_ZL5twice"), "{text}");
        assert!(
            text.contains("global @_ZL5table : [2 x f32] constant = bytes"),
            "{text}"
        );
        assert!(text.contains("type $Pair = struct"), "{text}");
        // The variable stays one: still an import of `a`.
        assert_eq!(text.matches("global @hits").count(), 1, "{text}");
        assert!(text.contains("global @hits : i32 global import"), "{text}");
        assert!(text.contains("file \"b.cu\""), "{text}");
    }

    #[test]
    fn undefined_and_internal_uses_are_errors() {
        let mut a = module(USER);
        let err = resolve_imports(&mut a, "a.cu", &[]).expect_err("nothing defines scale");
        assert_eq!(
            err.to_string(),
            "a.cu: undefined device function `scale` (no translation unit of the device link defines it)"
        );
        let mut c = module(
            "import device @peek() -> (i32)
kernel @k(%p: ptr<global>) {
  %v = call @peek() : i32
  store %p, %v
  return
}
",
        );
        let b = module(PROVIDER);
        let err = resolve_imports(
            &mut c,
            "c.cu",
            &[Unit {
                name: "b.cu",
                module: &b,
            }],
        )
        .expect_err("private variable");
        assert!(
            err.to_string()
                .contains("uses `_ZL7private`, which is internal to b.cu"),
            "{err}"
        );
    }

    #[test]
    fn clashing_internal_names_are_renamed() {
        let mut a = module(
            "import device @scale(%x: f32) -> (f32)
device @_ZL5twice(%x: f32) -> (f32) {
  %r = fmul %x, %x : f32
  return %r
}
kernel @k(%p: ptr<global>) {
  %one = const 1.0 : f32
  %s = call @scale(%one) : f32
  %t = call @_ZL5twice(%s) : f32
  store %p, %t
  return
}
",
        );
        let b = module(PROVIDER);
        resolve_imports(
            &mut a,
            "a.cu",
            &[Unit {
                name: "b.cu",
                module: &b,
            }],
        )
        .expect("links");
        verify_module(&a).expect("valid");
        let text = print_module(&a);
        // a's own twice is untouched; b's is a renamed copy.
        assert!(text.contains("%r = fmul %x, %x"), "{text}");
        assert!(text.contains("@_ZL5twice.u0.0"), "{text}");
        assert!(is_internal_name("_ZL5twice") && !is_internal_name("_Z5scalef"));
    }
}
