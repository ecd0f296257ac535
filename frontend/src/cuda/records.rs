//! Records (structs, classes, unions) and enums: finding a record's
//! declaration from a type spelling, and laying it out with the C/Itanium
//! rules as an IR struct.

use std::collections::HashMap;
use std::rc::Rc;

/// A record member while laying out: name, IR type, field declaration,
/// base-class name (for bases), C type.
type Member = (String, TypeId, Option<NodeId>, Option<Rc<str>>, CType);

use cucc_ir::{Field, FloatKind, StructType, Type, TypeId};

use super::ctype::{self, CType};
use super::diag::Diagnostic;
use super::ModCx;
use crate::ast::{Kind, LiteralValue, Node, NodeId};

/// The IR layout of one record.
#[derive(Clone, Debug)]
pub struct Layout {
    /// The IR struct.
    pub ty: TypeId,
    /// Field position of each non-static data member, by its `FieldDecl` id.
    pub fields: HashMap<NodeId, (u32, CType)>,
    /// Field position of each non-empty base class, by the base's name.
    pub bases: Vec<(Rc<str>, u32)>,
    /// True when the record has no storage of its own (an empty class).
    pub empty: bool,
}

/// Record and enum declarations of a translation unit, by name.
#[derive(Default)]
pub struct RecordIndex<'a> {
    by_name: HashMap<String, &'a Node>,
    by_norm: HashMap<String, Vec<&'a Node>>,
    /// Enum name -> underlying type.
    pub enums: HashMap<String, CType>,
    /// Enum constant id -> value.
    pub enum_values: HashMap<NodeId, i64>,
    /// Field id -> the record declaring it.
    pub field_parent: HashMap<NodeId, &'a Node>,
    /// Record id -> its qualified name.
    pub names: HashMap<NodeId, String>,
    /// Method id -> the qualified name of its record.
    pub methods: HashMap<NodeId, String>,
    /// While indexing a class template's specialisations: which of its
    /// parameters are `bool`s.
    bool_params: Vec<bool>,
}

/// A spelling reduced for matching: no `struct`/`class` tags, no spaces, no
/// integer suffixes in template arguments, no namespace qualifiers.
fn normalise(s: &str) -> String {
    let s = s
        .trim_start_matches("struct ")
        .trim_start_matches("class ")
        .trim_start_matches("union ");
    let mut out = String::new();
    let b: Vec<char> = s.chars().filter(|c| !c.is_whitespace()).collect();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if (c == 'U' || c == 'u' || c == 'L' || c == 'l')
            && i > 0
            && b[i - 1].is_ascii_digit()
            && !out.ends_with(|ch: char| ch.is_ascii_alphabetic())
        {
            i += 1;
            continue;
        }
        out.push(c);
        i += 1;
    }
    // clang prints a `bool` template argument as `true`/`false` in type
    // spellings but as 1/0 in a specialisation's `TemplateArgument`.
    let out = bool_args_as_ints(&out);
    // Drop namespace qualifiers outside template arguments.
    let mut depth = 0;
    let mut last = 0;
    let ob: Vec<char> = out.chars().collect();
    for (k, &c) in ob.iter().enumerate() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            ':' if depth == 0 && k + 1 < ob.len() && ob[k + 1] == ':' => last = k + 2,
            _ => {}
        }
    }
    ob[last..].iter().collect()
}

/// `true`/`false` written as whole words become `1`/`0`.
fn bool_args_as_ints(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        out.push_str(match word.as_str() {
            "true" => "1",
            "false" => "0",
            w => w,
        });
        word.clear();
    };
    for c in s.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// Which template parameters of class template `n` are `bool`s.
fn bool_params(n: &Node) -> Vec<bool> {
    n.inner
        .iter()
        .filter(|c| {
            matches!(
                c.kind,
                Kind::TemplateTypeParmDecl | Kind::NonTypeTemplateParmDecl
            ) || c.kind.name() == "TemplateTemplateParmDecl"
        })
        .map(|c| {
            c.kind == Kind::NonTypeTemplateParmDecl
                && c.ty.as_ref().is_some_and(|q| q.canonical() == "bool")
        })
        .collect()
}

/// A specialisation's template arguments as type spellings write them.
/// `bools` marks the `bool` parameters: under C++17 clang 16 dumps a `true`
/// argument of a member template of a specialisation as the value -1 (a
/// one-bit signed integer), spelled `true` (normalised to 1) in types.
fn template_args(n: &Node, bools: &[bool]) -> String {
    let mut args = Vec::new();
    for c in &n.inner {
        if c.kind.name() != "TemplateArgument" {
            continue;
        }
        let is_bool = bools.get(args.len()).copied().unwrap_or(false);
        if let Some(t) = &c.ty {
            args.push(t.canonical().to_string());
        } else if let Some(v) = &c.value {
            args.push(match v {
                LiteralValue::Text(s) => s.clone(),
                LiteralValue::Number(x) if is_bool => {
                    u8::from(x.as_i64().is_some_and(|v| v != 0)).to_string()
                }
                LiteralValue::Number(x) => x.to_string(),
                LiteralValue::Bool(b) => b.to_string(),
            });
        } else {
            args.push("?".into());
        }
    }
    format!("<{}>", args.join(", "))
}

impl<'a> RecordIndex<'a> {
    /// Indexes every record and enum under `decls`.
    pub fn build(decls: &'a [Node]) -> RecordIndex<'a> {
        let mut ix = RecordIndex::default();
        ix.walk(decls, "");
        ix
    }

    /// Indexes a lambda's closure class under its type's spelling.
    pub fn add_closure(&mut self, key: &str, record: &'a Node) {
        if !self.by_name.contains_key(key) {
            self.add(key.to_string(), record);
        }
    }

    fn add(&mut self, key: String, n: &'a Node) {
        self.names.insert(n.id, key.clone());
        for c in &n.inner {
            if c.kind == Kind::FieldDecl {
                self.field_parent.insert(c.id, n);
            }
            if c.kind.is_function() {
                self.methods.insert(c.id, key.clone());
            }
            if c.kind == Kind::FunctionTemplateDecl {
                for f in &c.inner {
                    if f.kind.is_function() {
                        self.methods.insert(f.id, key.clone());
                    }
                }
            }
        }
        self.by_norm.entry(normalise(&key)).or_default().push(n);
        self.by_name.insert(key, n);
    }

    fn walk(&mut self, decls: &'a [Node], prefix: &str) {
        let mut prev: Option<&'a Node> = None;
        for n in decls {
            // `typedef struct { ... } name;`: the typedef names the unnamed
            // record declared just before it.
            if n.kind == Kind::TypedefDecl {
                if let (Some(rec), Some(name)) = (prev, &n.name) {
                    let unnamed = matches!(rec.kind, Kind::CXXRecordDecl | Kind::RecordDecl)
                        && rec.name.is_none()
                        && rec.complete_definition;
                    // `typedef struct tag { ... } Name;`: Name is the tag's
                    // record too (types written `Name` reach the frontend so).
                    let aliases_tag = matches!(rec.kind, Kind::CXXRecordDecl | Kind::RecordDecl)
                        && rec.complete_definition
                        && rec.name.as_ref().is_some_and(|tag| {
                            tag != name
                                && n.ty.as_ref().is_some_and(|t| {
                                    [t.canonical(), t.qual_type.as_str()].iter().any(|c| {
                                        let bare = ["struct ", "class ", "union "]
                                            .iter()
                                            .find_map(|k| c.strip_prefix(k))
                                            .unwrap_or(c);
                                        bare == tag
                                    })
                                })
                        });
                    if unnamed || aliases_tag {
                        self.add(format!("{prefix}{name}"), rec);
                    }
                }
            }
            prev = Some(n);
            match &n.kind {
                Kind::NamespaceDecl => {
                    let name = n.name.as_deref().unwrap_or("(anonymous namespace)");
                    self.walk(&n.inner, &format!("{prefix}{name}::"));
                }
                Kind::LinkageSpecDecl => self.walk(&n.inner, prefix),
                Kind::CXXRecordDecl | Kind::RecordDecl
                    if n.complete_definition && !n.is_implicit =>
                {
                    let key = match &n.name {
                        Some(name) => format!("{prefix}{name}"),
                        None => format!("{prefix}(anon@{})", n.id.0),
                    };
                    self.add(key.clone(), n);
                    self.walk(&n.inner, &format!("{key}::"));
                }
                Kind::ClassTemplateDecl => {
                    let outer = std::mem::replace(&mut self.bool_params, bool_params(n));
                    self.walk(&n.inner, prefix);
                    self.bool_params = outer;
                }
                Kind::ClassTemplateSpecializationDecl if n.complete_definition => {
                    if let Some(name) = &n.name {
                        let key = format!("{prefix}{name}{}", template_args(n, &self.bool_params));
                        self.add(key.clone(), n);
                        let outer = std::mem::take(&mut self.bool_params);
                        self.walk(&n.inner, &format!("{key}::"));
                        self.bool_params = outer;
                    }
                }
                Kind::EnumDecl => self.add_enum(n, prefix),
                _ => {}
            }
        }
    }

    fn add_enum(&mut self, n: &'a Node, prefix: &str) {
        let mut next: i64 = 0;
        let mut negative = false;
        let mut max: i64 = 0;
        for c in &n.inner {
            if c.kind != Kind::EnumConstantDecl {
                continue;
            }
            let v = c.inner.first().and_then(const_int_of).unwrap_or(next);
            self.enum_values.insert(c.id, v);
            negative |= v < 0;
            max = max.max(v);
            next = v.wrapping_add(1);
        }
        let fixed = n
            .extra("fixedUnderlyingType")
            .and_then(|raw| serde_json::from_str::<crate::ast::QualType>(raw.get()).ok())
            .and_then(|q| ctype::parse(q.canonical()));
        let under = fixed.unwrap_or(
            if max > i64::from(u32::MAX) || (negative && max > i64::from(i32::MAX)) {
                CType::int(64, negative)
            } else {
                CType::int(32, negative)
            },
        );
        if let Some(name) = &n.name {
            self.enums.insert(format!("{prefix}{name}"), under.clone());
            self.enums.insert(normalise(name), under);
        } else if let Some(loc) = &n.loc {
            // Types name an unnamed enum by where it is written:
            // `Outer<1>::(unnamed enum at f.cu:7:5)`.
            let at = &loc.expansion;
            let key = format!("(unnamed enum at {}:{}:{})", at.file, at.line, at.col);
            self.enums.insert(normalise(&key), under);
        }
    }

    /// The record declaration a type spelling names.
    pub fn find(&self, name: &str) -> Option<&'a Node> {
        if let Some(n) = self.by_name.get(name) {
            return Some(n);
        }
        match self.by_norm.get(&normalise(name)) {
            Some(v) if v.len() == 1 => Some(v[0]),
            Some(v) => v.last().copied(),
            None => None,
        }
    }

    /// The underlying type of the enum `name`.
    pub fn find_enum(&self, name: &str) -> Option<&CType> {
        self.enums
            .get(name)
            .or_else(|| self.enums.get(&normalise(name)))
    }
}

/// The value of an integer constant expression as clang folded it
/// (`ConstantExpr` with `value`), or of a literal, through casts.
pub fn const_int_of(n: &Node) -> Option<i64> {
    match &n.kind {
        Kind::IntegerLiteral | Kind::ConstantExpr | Kind::CharacterLiteral => match &n.value {
            Some(LiteralValue::Text(t)) => parse_int_text(t),
            Some(LiteralValue::Number(x)) => x.as_i64(),
            Some(LiteralValue::Bool(b)) => Some(i64::from(*b)),
            None => n.inner.first().and_then(const_int_of),
        },
        Kind::ImplicitCastExpr | Kind::ParenExpr | Kind::CStyleCastExpr => {
            n.inner.first().and_then(const_int_of)
        }
        Kind::UnaryOperator if n.opcode.as_deref() == Some("-") => n
            .inner
            .first()
            .and_then(const_int_of)
            .map(|v| v.wrapping_neg()),
        _ => None,
    }
}

/// Parses clang's decimal integer text (which may exceed `i64` for unsigned
/// 64-bit values).
pub fn parse_int_text(t: &str) -> Option<i64> {
    t.parse::<i64>()
        .ok()
        .or_else(|| t.parse::<u64>().ok().map(|v| v as i64))
}

impl<'a> ModCx<'a> {
    /// The qualified name of the class a method belongs to.
    pub fn record_of_method(&self, m: &Node) -> Option<String> {
        if let Some(r) = self.records.methods.get(&m.id) {
            return Some(r.clone());
        }
        let raw = m.extra("parentDeclContextId")?;
        let id: NodeId = serde_json::from_str(raw.get()).ok()?;
        self.records.names.get(&id).cloned()
    }

    /// Resolves enums, keeping a top-level `volatile`.
    pub fn resolve_keep_volatile(&self, t: &CType) -> CType {
        match t {
            CType::Volatile(inner) => CType::Volatile(std::rc::Rc::new(self.resolve(inner))),
            _ => self.resolve(t),
        }
    }

    /// The IR type a value of `t` has in memory.
    pub fn mem_ty(&mut self, t: &CType, at: &Node) -> Result<TypeId, Diagnostic> {
        let ty = match t.strip() {
            CType::Bool => self.module.types.i1(),
            CType::Int { bits, .. } => self.module.types.int(*bits),
            CType::Float(k) => self.module.types.float(*k),
            CType::Ptr(_) | CType::Ref(_) => self.generic_ptr(),
            CType::Array(e, n) => {
                let et = self.mem_ty(e, at)?;
                self.module.types.array(et, n.unwrap_or(0))
            }
            CType::Named(name) => {
                if let Some(e) = self.alias_of(name) {
                    return self.mem_ty(&e, at);
                }
                if let Some(l) = self.anon_records.get(&**name) {
                    return Ok(l.ty);
                }
                self.layout(name, at)?.ty
            }
            CType::Void => self.module.types.i8(),
            other => {
                return Err(Diagnostic::at(
                    at,
                    format!("type {other:?} cannot be stored in device code"),
                ))
            }
        };
        Ok(ty)
    }

    /// The value of `sizeof`/`alignof` node `e` (a `UnaryExprOrTypeTraitExpr`):
    /// of its `argType`, else of `expr_ty`, the type of its operand.
    pub fn size_align_of(&mut self, e: &Node, expr_ty: Option<CType>) -> Result<u64, Diagnostic> {
        let arg = match (e.extra("argType"), expr_ty) {
            (Some(raw), _) => {
                let q: crate::ast::QualType = serde_json::from_str(raw.get())
                    .map_err(|_| Diagnostic::at(e, "malformed sizeof"))?;
                ctype::parse(q.canonical())
                    .ok_or_else(|| Diagnostic::at(e, ctype::unreadable(q.canonical())))?
            }
            (None, Some(t)) => t,
            (None, None) => return Err(Diagnostic::at(e, "sizeof without a type")),
        };
        let arg = match arg {
            CType::Ref(t) => (*t).clone(),
            t => t,
        };
        let t = self.mem_ty(&arg, e)?;
        match e.name.as_deref() {
            Some("sizeof") => Ok(self.module.types.size_of(t)),
            Some("alignof") | Some("__alignof") | Some("_Alignof") => {
                Ok(self.module.types.align_of(t))
            }
            other => Err(Diagnostic::at(
                e,
                format!("'{}' is not supported in device code", other.unwrap_or("?")),
            )),
        }
    }

    /// The IR type of an SSA value of C type `t`, or `None` for aggregates
    /// and `void`.
    pub fn scalar_ty(&mut self, t: &CType) -> Option<TypeId> {
        Some(match t.strip() {
            CType::Bool => self.module.types.i1(),
            CType::Int { bits, .. } => self.module.types.int(*bits),
            CType::Float(k) => self.module.types.float(*k),
            CType::Ptr(_) | CType::Ref(_) => self.generic_ptr(),
            CType::Named(name) => {
                let e = self.alias_of(name)?;
                return self.scalar_ty(&e);
            }
            _ => return None,
        })
    }

    /// Resolves enums to their underlying integer type and type aliases to
    /// what they stand for.
    pub fn resolve(&self, t: &CType) -> CType {
        match t.strip() {
            CType::Named(name) => match self.alias_of(name) {
                Some(e) => e,
                None => t.strip().clone(),
            },
            _ => t.strip().clone(),
        }
    }

    /// What the name `name` stands for when it is an enum (its underlying
    /// type) or a type alias (its target, resolved); `None` for records and
    /// unknown names.
    pub fn alias_of(&self, name: &str) -> Option<CType> {
        if let Some(e) = self.records.find_enum(name) {
            return Some(e.clone());
        }
        let (recs, anon) = (&self.records, &self.anon_records);
        let is_type =
            |n: &str| recs.find(n).is_some() || recs.find_enum(n).is_some() || anon.contains_key(n);
        if is_type(name) {
            return None;
        }
        let t = self.aliases.resolve(self.tu, name, &is_type)?;
        Some(match &t {
            CType::Named(n) => match recs.find_enum(n) {
                Some(e) => e.clone(),
                None => t,
            },
            _ => t,
        })
    }

    /// `ptr<generic>`.
    pub fn generic_ptr(&mut self) -> TypeId {
        self.module.types.ptr(cucc_ir::Space::Generic)
    }

    /// The declaration of the record `name`.
    pub fn record_decl(&self, name: &str) -> Option<&'a Node> {
        self.records.find(name)
    }

    /// The layout of the record `name`, computed on first use.
    pub fn layout(&mut self, name: &str, at: &Node) -> Result<Rc<Layout>, Diagnostic> {
        if let Some(l) = self.anon_records.get(name) {
            return Ok(l.clone());
        }
        let decl = self
            .records
            .find(name)
            .ok_or_else(|| Diagnostic::at(at, format!("unknown type '{name}' in device code")))?;
        self.layout_of(decl, name, at)
    }

    /// The layout of a record declaration.
    pub fn layout_of(
        &mut self,
        decl: &'a Node,
        name: &str,
        at: &Node,
    ) -> Result<Rc<Layout>, Diagnostic> {
        if let Some(l) = self.layouts.get(&decl.id) {
            return Ok(l.clone());
        }
        if !self.laying_out.insert(decl.id) {
            return Err(Diagnostic::at(
                at,
                format!("record '{name}' contains itself"),
            ));
        }
        let r = self.compute_layout(decl, name, at);
        self.laying_out.remove(&decl.id);
        let l = Rc::new(r?);
        self.layouts.insert(decl.id, l.clone());
        for (&fid, _) in l.fields.iter() {
            self.field_owner.insert(fid, decl.id);
        }
        Ok(l)
    }

    fn compute_layout(
        &mut self,
        decl: &'a Node,
        name: &str,
        at: &Node,
    ) -> Result<Layout, Diagnostic> {
        let is_union = decl.tag_used.as_deref() == Some("union");
        if decl
            .inner
            .iter()
            .any(|m| m.kind.is_function() && m.extra("virtual").is_some())
        {
            return Err(Diagnostic::at(
                at,
                format!("polymorphic class '{name}' (virtual functions) is not supported in device code"),
            ));
        }
        // Members: (name, type, field decl id or base name).
        let mut members: Vec<Member> = Vec::new();
        if let Some(raw) = decl.extra("bases") {
            #[derive(serde::Deserialize)]
            struct Base {
                #[serde(rename = "type")]
                ty: crate::ast::QualType,
                #[serde(rename = "isVirtual", default)]
                is_virtual: bool,
            }
            let bases: Vec<Base> = serde_json::from_str(raw.get()).unwrap_or_default();
            for b in bases {
                if b.is_virtual {
                    return Err(Diagnostic::at(
                        at,
                        format!(
                            "virtual base classes of '{name}' are not supported in device code"
                        ),
                    ));
                }
                let bname = b.ty.canonical().to_string();
                let bl = self.layout(&bname, at)?;
                if !bl.empty {
                    let bn: Rc<str> = bname.clone().into();
                    members.push((
                        bname,
                        bl.ty,
                        None,
                        Some(bn),
                        CType::Named(b.ty.canonical().into()),
                    ));
                }
            }
        }
        let mut last_record: Option<&'a Node> = None;
        for m in &decl.inner {
            match m.kind {
                Kind::CXXRecordDecl | Kind::RecordDecl if !m.is_implicit => last_record = Some(m),
                Kind::FieldDecl => {
                    if m.extra("isBitfield").is_some() {
                        return Err(Diagnostic::at(
                            m,
                            "bit-fields are not supported in device code",
                        ));
                    }
                    let qt = m.ty.as_ref().map(|q| q.canonical()).unwrap_or("");
                    let ct = if qt.contains("(unnamed") || qt.contains("(anonymous") {
                        let inner = last_record.ok_or_else(|| {
                            Diagnostic::at(m, "anonymous member without its record")
                        })?;
                        let key = format!("{name}::(anon@{})", inner.id.0);
                        let l = self.layout_of(inner, &key, m)?;
                        let spelled: Rc<str> = qt
                            .trim_start_matches("struct ")
                            .trim_start_matches("union ")
                            .into();
                        self.anon_records.insert(spelled.to_string(), l.clone());
                        self.anon_records.insert(qt.to_string(), l.clone());
                        let ty = l.ty;
                        members.push((
                            m.name.clone().unwrap_or_default(),
                            ty,
                            Some(m.id),
                            None,
                            CType::Named(spelled),
                        ));
                        continue;
                    } else {
                        ctype::parse(qt).ok_or_else(|| Diagnostic::at(m, ctype::unreadable(qt)))?
                    };
                    let ty = self.mem_ty(&ct, m)?;
                    members.push((m.name.clone().unwrap_or_default(), ty, Some(m.id), None, ct));
                }
                _ => {}
            }
        }
        let types = &mut self.module.types;
        let mut fields = Vec::new();
        let mut offset = 0u64;
        let mut size = 0u64;
        let mut align = 1u64;
        if let Some(a) = decl
            .inner
            .iter()
            .find(|c| c.kind == Kind::AlignedAttr)
            .and_then(|c| c.inner.first())
            .and_then(const_int_of)
        {
            align = align.max(a as u64);
        }
        for (fname, ty, _, _, _) in &members {
            let a = types.align_of(*ty);
            let off = if is_union {
                0
            } else {
                cucc_ir::types::round_up(offset, a)
            };
            fields.push(Field {
                name: fname.clone(),
                ty: *ty,
                offset: off,
            });
            offset = off + types.size_of(*ty);
            size = size.max(offset);
            align = align.max(a);
        }
        let empty = members.is_empty();
        let size = if empty {
            1
        } else {
            cucc_ir::types::round_up(size, align)
        };
        let ty = types.insert(Type::Struct(StructType {
            name: name.to_string(),
            fields,
            size,
            align,
        }));
        let mut l = Layout {
            ty,
            fields: HashMap::new(),
            bases: Vec::new(),
            empty,
        };
        for (i, (_, _, fid, base, ct)) in members.into_iter().enumerate() {
            if let Some(f) = fid {
                l.fields.insert(f, (i as u32, ct));
            }
            if let Some(b) = base {
                l.bases.push((b, i as u32));
            }
        }
        Ok(l)
    }

    /// The record a field belongs to and the field's position and type.
    pub fn field(
        &mut self,
        field: NodeId,
        at: &Node,
    ) -> Result<(Rc<Layout>, u32, CType), Diagnostic> {
        let owner = self.field_owner.get(&field).copied();
        let owner = match owner {
            Some(o) => o,
            None => {
                // Lay out the record that declares the field.
                let rec = self
                    .records
                    .field_parent
                    .get(&field)
                    .copied()
                    .ok_or_else(|| Diagnostic::at(at, "member of an unknown record"))?;
                let name = self.record_key(rec);
                self.layout_of(rec, &name, at)?;
                rec.id
            }
        };
        let l = self
            .layouts
            .get(&owner)
            .cloned()
            .ok_or_else(|| Diagnostic::at(at, "member of an unknown record"))?;
        let (i, ct) = l
            .fields
            .get(&field)
            .cloned()
            .ok_or_else(|| Diagnostic::at(at, "member of an unknown record"))?;
        Ok((l, i, ct))
    }

    /// A unique key naming a record declaration (for records reached through
    /// their fields rather than their name).
    pub fn record_key(&self, rec: &Node) -> String {
        self.records
            .names
            .get(&rec.id)
            .cloned()
            .unwrap_or_else(|| format!("{}@{:x}", rec.name.as_deref().unwrap_or("anon"), rec.id.0))
    }

    /// True for `__half`/`__nv_bfloat16`, which are values of a float type.
    pub fn is_half_like(t: &CType) -> Option<FloatKind> {
        match t.strip() {
            CType::Float(k @ (FloatKind::F16 | FloatKind::BF16)) => Some(*k),
            _ => None,
        }
    }
}
