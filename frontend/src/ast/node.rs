//! One generic AST node: the fields the lowering reads are typed, the rest
//! are kept as raw JSON.

use std::fmt;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;

use super::kind::Kind;
use super::loc::{self, SourceLocation, SourceRange};
use super::scan;

/// A node's `id` (clang prints the node's address; it identifies the node
/// within one dump).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u64);

impl NodeId {
    /// Parses clang's `"0x55d0c1a2b3c0"` spelling.
    pub fn parse(s: &str) -> Option<NodeId> {
        let hex = s.strip_prefix("0x").unwrap_or(s);
        u64::from_str_radix(hex, 16).ok().map(NodeId)
    }
}

impl<'de> Deserialize<'de> for NodeId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        NodeId::parse(&s).ok_or_else(|| de::Error::custom(format!("bad node id {s:?}")))
    }
}

/// A type as clang spells it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct QualType {
    /// The type as written (`const T *`, `size_t`).
    #[serde(rename = "qualType")]
    pub qual_type: String,
    /// The type with sugar removed, when it differs (`const float *`,
    /// `unsigned long`).
    #[serde(rename = "desugaredQualType")]
    pub desugared: Option<String>,
}

impl QualType {
    /// The desugared spelling if there is one, else the written one.
    pub fn canonical(&self) -> &str {
        self.desugared.as_deref().unwrap_or(&self.qual_type)
    }
}

/// A reference to a declaration (`referencedDecl` of a `DeclRefExpr`).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct DeclRef {
    /// The declaration's node id.
    pub id: NodeId,
    /// Its kind.
    #[serde(deserialize_with = "deserialize_kind")]
    pub kind: Kind,
    /// Its name.
    pub name: Option<String>,
    /// Its type.
    #[serde(rename = "type")]
    pub ty: Option<QualType>,
}

fn deserialize_kind<'de, D: Deserializer<'de>>(d: D) -> Result<Kind, D::Error> {
    let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
    Ok(Kind::from_name(&s))
}

/// An expression's value category.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueCategory {
    /// `prvalue`.
    PRValue,
    /// `lvalue`.
    LValue,
    /// `xvalue`.
    XValue,
}

/// The `value` of a literal: clang writes integers and floats as strings
/// (exact), characters as numbers, booleans as booleans.
#[derive(Clone, Debug, PartialEq)]
pub enum LiteralValue {
    /// Textual value (integer, floating or string literal).
    Text(String),
    /// Numeric value (character literal).
    Number(serde_json::Number),
    /// Boolean value.
    Bool(bool),
}

/// A node of clang's AST: declaration, statement, expression, attribute, ...
#[derive(Clone, Debug, Default)]
pub struct Node {
    /// Node id.
    pub id: NodeId,
    /// Node kind (`Kind::Other("")` for a node without one).
    pub kind: Kind,
    /// Declaration's location (its name).
    pub loc: Option<SourceLocation>,
    /// Source range.
    pub range: Option<SourceRange>,
    /// Declared name.
    pub name: Option<String>,
    /// Mangled name of functions and variables.
    pub mangled_name: Option<String>,
    /// Type of a declaration or expression.
    pub ty: Option<QualType>,
    /// Value category of an expression.
    pub value_category: Option<ValueCategory>,
    /// Operator spelling of unary/binary operators (`+`, `<<=`, `++`).
    pub opcode: Option<String>,
    /// Cast kind of casts (`LValueToRValue`, `IntegralCast`, ...).
    pub cast_kind: Option<String>,
    /// Declaration a `DeclRefExpr` names.
    pub referenced_decl: Option<DeclRef>,
    /// Member a `MemberExpr` names.
    pub referenced_member_decl: Option<NodeId>,
    /// `->` rather than `.` in a `MemberExpr`.
    pub is_arrow: bool,
    /// Postfix `++`/`--`.
    pub is_postfix: bool,
    /// Compiler-generated.
    pub is_implicit: bool,
    /// Declaration is used.
    pub is_used: bool,
    /// Declaration is referenced.
    pub is_referenced: bool,
    /// `static`, `extern`, ...
    pub storage_class: Option<String>,
    /// Initialisation style of a variable (`c`, `call`, `list`).
    pub init: Option<String>,
    /// `struct`, `class` or `union` of a record.
    pub tag_used: Option<String>,
    /// The record declaration is a complete definition.
    pub complete_definition: bool,
    /// `inline` function.
    pub inline: bool,
    /// `constexpr` declaration.
    pub constexpr: bool,
    /// Value of a literal.
    pub value: Option<LiteralValue>,
    /// Children.
    pub inner: Vec<Node>,
    /// The filler of an `InitListExpr` that initialises an array.
    pub array_filler: Vec<Node>,
    /// All other fields, unparsed, in document order.
    pub extra: Vec<(String, Box<RawValue>)>,
}

impl Node {
    /// True if the node has kind `k`.
    pub fn is(&self, k: &Kind) -> bool {
        self.kind == *k
    }

    /// An unparsed field.
    pub fn extra(&self, key: &str) -> Option<&RawValue> {
        self.extra.iter().find(|(k, _)| k == key).map(|(_, v)| &**v)
    }

    /// True if a child attribute of kind `attr` is present.
    pub fn has_attr(&self, attr: &Kind) -> bool {
        self.inner.iter().any(|n| n.is(attr))
    }

    /// True for a `__global__` function.
    pub fn is_kernel(&self) -> bool {
        self.kind.is_function() && self.has_attr(&Kind::CUDAGlobalAttr)
    }

    /// The location the user sees: `loc`, else the start of `range`.
    pub fn user_loc(&self) -> Option<&SourceLocation> {
        self.loc
            .as_ref()
            .or_else(|| self.range.as_ref().and_then(|r| r.begin.as_ref()))
    }

    /// Visits this node and all descendants in document order.
    pub fn walk<'a>(&'a self, f: &mut dyn FnMut(&'a Node)) {
        f(self);
        for c in &self.inner {
            c.walk(f);
        }
        for c in &self.array_filler {
            c.walk(f);
        }
    }
}

fn category(s: &str) -> Option<ValueCategory> {
    match s {
        "prvalue" => Some(ValueCategory::PRValue),
        "lvalue" => Some(ValueCategory::LValue),
        "xvalue" => Some(ValueCategory::XValue),
        _ => None,
    }
}

struct LocField(Option<SourceLocation>);
impl<'de> Deserialize<'de> for LocField {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        loc::deserialize_loc(d).map(LocField)
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a clang AST node object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let mut n = Node::default();
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            match &*key {
                "id" => n.id = map.next_value()?,
                "kind" => {
                    n.kind = Kind::from_name(&map.next_value::<std::borrow::Cow<'de, str>>()?)
                }
                "loc" => n.loc = map.next_value::<LocField>()?.0,
                "range" => n.range = Some(map.next_value()?),
                "name" => n.name = Some(map.next_value()?),
                "mangledName" => n.mangled_name = Some(map.next_value()?),
                "type" => n.ty = Some(map.next_value()?),
                "valueCategory" => {
                    n.value_category = category(&map.next_value::<std::borrow::Cow<'de, str>>()?)
                }
                "opcode" => n.opcode = Some(map.next_value()?),
                "castKind" => n.cast_kind = Some(map.next_value()?),
                "referencedDecl" => n.referenced_decl = Some(map.next_value()?),
                "referencedMemberDecl" => n.referenced_member_decl = Some(map.next_value()?),
                "isArrow" => n.is_arrow = map.next_value()?,
                "isPostfix" => n.is_postfix = map.next_value()?,
                "isImplicit" => n.is_implicit = map.next_value()?,
                "isUsed" => n.is_used = map.next_value()?,
                "isReferenced" => n.is_referenced = map.next_value()?,
                "storageClass" => n.storage_class = Some(map.next_value()?),
                "init" => n.init = Some(map.next_value()?),
                "tagUsed" => n.tag_used = Some(map.next_value()?),
                "completeDefinition" => n.complete_definition = map.next_value()?,
                "inline" => n.inline = map.next_value()?,
                "constexpr" => n.constexpr = map.next_value()?,
                "value" => {
                    n.value = Some(match map.next_value::<serde_json::Value>()? {
                        serde_json::Value::String(s) => LiteralValue::Text(s),
                        serde_json::Value::Number(x) => LiteralValue::Number(x),
                        serde_json::Value::Bool(b) => LiteralValue::Bool(b),
                        other => {
                            return Err(de::Error::custom(format!(
                                "unexpected literal value {other}"
                            )))
                        }
                    })
                }
                "inner" => n.inner = map.next_value()?,
                "array_filler" => n.array_filler = map.next_value()?,
                _ => {
                    let raw: Box<RawValue> = map.next_value()?;
                    // Unknown fields may hold locations: keep the elision
                    // state right by scanning them.
                    let mut facts = scan::ScanFacts::default();
                    loc::with_state(|st| scan::skip_value(raw.get(), 0, 0, Some(st), &mut facts))
                        .map_err(|e| de::Error::custom(format!("in field {key:?}: {}", e.message)))?;
                    n.extra.push((key.into_owned(), raw));
                }
            }
        }
        Ok(n)
    }
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(NodeVisitor)
    }
}
