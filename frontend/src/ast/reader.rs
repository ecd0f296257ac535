//! Reading a translation unit's JSON AST selectively.
//!
//! A CUDA file that includes `<iostream>` produces well over 100 MB of JSON,
//! almost all of it host declarations from system headers. The reader walks
//! the text itself and materialises only:
//!
//! - declarations whose location is in the main file;
//! - declarations from the directories in [`ReadOptions::keep_dirs`]
//!   (cucc's CUDA headers: intrinsics, built-in variables, vector types);
//! - with [`ReadOptions::keep_device_decls`], declarations from other headers
//!   that carry an explicit or implicit CUDA attribute (device code).
//!
//! `NamespaceDecl` and `LinkageSpecDecl` from headers are descended into and
//! kept with only their kept members. Every other declaration is skipped
//! with a structural scan that still follows the location elision state, and
//! is indexed by id so that [`TranslationUnit::materialise`] can parse it on
//! demand (the lowering does so for host-device functions that device code
//! calls, such as libstdc++'s constexpr math overloads).

use std::collections::HashMap;

use serde::de::DeserializeSeed;
use serde::Deserialize;

use super::kind::Kind;
use super::loc::{self, LocState, SourceLocation, SourceRange};
use super::node::{Node, NodeId};
use super::scan::{self, ScanError, ScanFacts};
use crate::error::{FrontendError, Result};

/// What to materialise.
#[derive(Clone, Debug, Default)]
pub struct ReadOptions {
    /// The main file's name exactly as clang reports it (as it was given on
    /// clang's command line).
    pub main_file: String,
    /// Declarations whose file name starts with one of these are kept.
    pub keep_dirs: Vec<String>,
    /// Keep header declarations that carry a CUDA attribute.
    pub keep_device_decls: bool,
}

/// A declaration the reader skipped, indexed for [`TranslationUnit::materialise`].
#[derive(Clone, Debug)]
pub struct SkippedDecl {
    /// Its id.
    pub id: NodeId,
    /// Its kind.
    pub kind: Kind,
    /// Its name, if it has one.
    pub name: Option<String>,
    /// Byte range in the JSON text.
    pub span: std::ops::Range<usize>,
    /// The elision state just before it.
    state: LocState,
}

/// Counts describing one read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadStats {
    /// Bytes of JSON.
    pub bytes: usize,
    /// Declarations materialised (not counting their descendants).
    pub kept: usize,
    /// Declarations skipped.
    pub skipped: usize,
}

/// A translation unit: the kept declarations, in document order, and the
/// JSON text the skipped ones can still be parsed from.
#[derive(Debug)]
pub struct TranslationUnit {
    json: String,
    /// Kept top-level declarations (containers hold only kept members).
    pub decls: Vec<Node>,
    skipped: Vec<SkippedDecl>,
    index: HashMap<NodeId, usize>,
    /// Counts.
    pub stats: ReadStats,
}

fn json_error(offset: usize, message: impl Into<String>) -> FrontendError {
    FrontendError::Json {
        offset,
        message: message.into(),
    }
}

fn scan_error(e: ScanError) -> FrontendError {
    json_error(e.offset, e.message)
}

/// Parses `text[span]` with serde, from the current elision state.
fn parse_slice<T: for<'de> Deserialize<'de>>(
    text: &str,
    span: std::ops::Range<usize>,
) -> Result<T> {
    let start = span.start;
    serde_json::from_str(&text[span]).map_err(|e| json_error(start, e.to_string()))
}

/// Parses a whole JSON AST without skipping anything (slow for large
/// units; meant for small inputs and for checking the selective reader).
pub fn parse_all(json: &str) -> Result<Node> {
    let old = loc::set_state(LocState::default());
    let r = serde_json::from_str::<Node>(json).map_err(|e| json_error(0, e.to_string()));
    loc::set_state(old);
    r
}

struct Reader<'a> {
    text: &'a str,
    opts: &'a ReadOptions,
    skipped: Vec<SkippedDecl>,
    stats: ReadStats,
}

fn expect(b: &[u8], i: usize, c: u8, what: &'static str) -> Result<()> {
    if b.get(i) == Some(&c) {
        Ok(())
    } else {
        Err(json_error(i, what))
    }
}

impl Reader<'_> {
    fn state(&self) -> LocState {
        loc::with_state(|s| s.clone())
    }

    fn skip_tracked(&self, i: usize, depth: usize, facts: &mut ScanFacts) -> Result<usize> {
        loc::with_state(|st| scan::skip_value(self.text, i, depth, Some(st), facts))
            .map_err(scan_error)
    }

    fn skip_untracked(&self, i: usize) -> Result<usize> {
        scan::skip_value(self.text, i, 0, None, &mut ScanFacts::default()).map_err(scan_error)
    }

    fn string_at(&self, i: usize) -> Result<(String, usize)> {
        let b = self.text.as_bytes();
        expect(b, i, b'"', "expected a string")?;
        let end = scan::string_end(b, i).map_err(scan_error)?;
        let s: String = parse_slice(self.text, i..end)?;
        Ok((s, end))
    }

    /// Reads the elements of the array whose `[` is at `i` as declarations;
    /// returns the kept ones and the index past `]`.
    fn read_decl_array(&mut self, i: usize) -> Result<(Vec<Node>, usize)> {
        let b = self.text.as_bytes();
        expect(b, i, b'[', "expected an array")?;
        let mut i = i + 1;
        let mut kept = Vec::new();
        loop {
            i = scan::skip_ws(b, i);
            match b.get(i) {
                Some(b']') => return Ok((kept, i + 1)),
                Some(b',') => i += 1,
                Some(_) => {
                    let (end, node) = self.read_decl(i)?;
                    kept.extend(node);
                    i = end;
                }
                None => return Err(json_error(i, "unterminated array")),
            }
        }
    }

    fn wanted_file(&self, file: &str) -> bool {
        file == self.opts.main_file
            || self
                .opts
                .keep_dirs
                .iter()
                .any(|d| file.starts_with(d.as_str()))
            || !is_system_header(file)
    }

    /// Reads the declaration object at `s`: returns the index past it and
    /// the node if it is kept.
    fn read_decl(&mut self, s: usize) -> Result<(usize, Option<Node>)> {
        let b = self.text.as_bytes();
        let before = self.state();
        expect(b, s, b'{', "expected a declaration object")?;
        let mut i = s + 1;
        let mut id = NodeId::default();
        let mut kind = Kind::default();
        let mut name = None;
        let mut loc_: Option<SourceLocation> = None;
        let mut range: Option<SourceRange> = None;
        // Set once the declaration is known to be a header container.
        let mut container: Option<Node> = None;
        loop {
            i = scan::skip_ws(b, i);
            match b.get(i) {
                Some(b',') => {
                    i += 1;
                    continue;
                }
                Some(b'}') if container.is_some() => {
                    let node = container.take().filter(|n| !n.inner.is_empty());
                    return Ok((i + 1, node));
                }
                Some(b'"') => {}
                Some(b'}') => {}
                _ => return Err(json_error(i, "expected a key or `}`")),
            }
            // Peek at the key (if any) to see whether the header goes on.
            let (key, after_key) = if b[i] == b'"' {
                let (k, end) = self.string_at(i)?;
                let colon = scan::skip_ws(b, end);
                expect(b, colon, b':', "expected `:`")?;
                (Some(k), scan::skip_ws(b, colon + 1))
            } else {
                (None, i)
            };
            let v = after_key;
            if let Some(c) = container.as_mut() {
                let key = key.unwrap_or_default();
                if key == "inner" {
                    let (kept, end) = self.read_decl_array(v)?;
                    c.inner = kept;
                    i = end;
                } else {
                    let end = self.skip_tracked(v, 0, &mut ScanFacts::default())?;
                    let raw =
                        serde_json::value::RawValue::from_string(self.text[v..end].to_string())
                            .map_err(|e| json_error(v, e.to_string()))?;
                    c.extra.push((key, raw));
                    i = end;
                }
                continue;
            }
            match key.as_deref() {
                Some("id") => {
                    let (text, end) = self.string_at(v)?;
                    id = NodeId::parse(&text).ok_or_else(|| json_error(v, "bad node id"))?;
                    i = end;
                }
                Some("kind") => {
                    let (text, end) = self.string_at(v)?;
                    kind = Kind::from_name(&text);
                    i = end;
                }
                Some("name") => {
                    let (text, end) = self.string_at(v)?;
                    name = Some(text);
                    i = end;
                }
                Some("loc") => {
                    let end = self.skip_untracked(v)?;
                    loc_ = LocSeed
                        .deserialize(&mut serde_json::Deserializer::from_str(&self.text[v..end]))
                        .map_err(|e| json_error(v, e.to_string()))?;
                    i = end;
                }
                Some("range") => {
                    let end = self.skip_untracked(v)?;
                    range = Some(parse_slice(self.text, v..end)?);
                    i = end;
                }
                // Flags clang writes between the range and the name
                // (`isReferenced`, `isImplicit`, ...): read past them so a
                // skipped declaration keeps its name (aliases are looked up
                // by name). Containers keep every field, so not for them.
                Some(k)
                    if k.starts_with("is")
                        && !kind.is_container()
                        && matches!(b.get(v), Some(b't' | b'f')) =>
                {
                    i = self.skip_untracked(v)?;
                }
                _ => {
                    // The header is over: decide.
                    let file = loc_
                        .as_ref()
                        .or_else(|| range.as_ref().and_then(|r| r.begin.as_ref()))
                        .map(|l| l.expansion.file.clone());
                    if file.as_deref().is_some_and(|f| self.wanted_file(f)) {
                        return self.keep(s, before).map(|(end, n)| (end, Some(n)));
                    }
                    if kind.is_container() {
                        container = Some(Node {
                            id,
                            kind: kind.clone(),
                            loc: loc_.take(),
                            range: range.take(),
                            name: name.take(),
                            ..Node::default()
                        });
                        continue;
                    }
                    let mut facts = ScanFacts::default();
                    let end = if b[i] == b'}' {
                        i + 1
                    } else {
                        self.skip_tracked(i, 1, &mut facts)?
                    };
                    if facts.device_attr && self.opts.keep_device_decls {
                        return self.keep(s, before).map(|(end, n)| (end, Some(n)));
                    }
                    self.stats.skipped += 1;
                    self.skipped.push(SkippedDecl {
                        id,
                        kind,
                        name,
                        span: s..end,
                        state: before,
                    });
                    return Ok((end, None));
                }
            }
        }
    }

    /// Parses the whole object at `s` with serde from elision state `before`.
    fn keep(&mut self, s: usize, before: LocState) -> Result<(usize, Node)> {
        let end = self.skip_untracked(s)?;
        loc::set_state(before);
        let node: Node = parse_slice(self.text, s..end)?;
        self.stats.kept += 1;
        Ok((end, node))
    }
}

struct LocSeed;
impl<'de> DeserializeSeed<'de> for LocSeed {
    type Value = Option<SourceLocation>;
    fn deserialize<D: serde::Deserializer<'de>>(
        self,
        d: D,
    ) -> std::result::Result<Self::Value, D::Error> {
        loc::deserialize_loc(d)
    }
}

impl TranslationUnit {
    /// Reads clang's JSON AST (`-Xclang -ast-dump=json`) selectively.
    pub fn read(json: String, opts: &ReadOptions) -> Result<TranslationUnit> {
        let old = loc::set_state(LocState::default());
        let r = Self::read_inner(&json, opts);
        loc::set_state(old);
        let (decls, skipped, stats) = r?;
        let index = skipped.iter().enumerate().map(|(k, d)| (d.id, k)).collect();
        Ok(TranslationUnit {
            json,
            decls,
            skipped,
            index,
            stats,
        })
    }

    fn read_inner(
        json: &str,
        opts: &ReadOptions,
    ) -> Result<(Vec<Node>, Vec<SkippedDecl>, ReadStats)> {
        let mut r = Reader {
            text: json,
            opts,
            skipped: Vec::new(),
            stats: ReadStats {
                bytes: json.len(),
                ..ReadStats::default()
            },
        };
        let b = json.as_bytes();
        let mut i = scan::skip_ws(b, 0);
        expect(b, i, b'{', "expected the translation unit object")?;
        i += 1;
        let mut decls = Vec::new();
        loop {
            i = scan::skip_ws(b, i);
            match b.get(i) {
                Some(b',') => i += 1,
                Some(b'}') => break,
                Some(b'"') => {
                    let (key, end) = r.string_at(i)?;
                    let colon = scan::skip_ws(b, end);
                    expect(b, colon, b':', "expected `:`")?;
                    let v = scan::skip_ws(b, colon + 1);
                    if key == "inner" {
                        let (kept, end) = r.read_decl_array(v)?;
                        decls = kept;
                        i = end;
                    } else {
                        i = r.skip_tracked(v, 0, &mut ScanFacts::default())?;
                    }
                }
                _ => return Err(json_error(i, "expected a key or `}`")),
            }
        }
        Ok((decls, r.skipped, r.stats))
    }

    /// The JSON text.
    pub fn json(&self) -> &str {
        &self.json
    }

    /// The skipped declarations, in document order.
    pub fn skipped(&self) -> &[SkippedDecl] {
        &self.skipped
    }

    /// The skipped declaration with id `id`, if any.
    pub fn skipped_decl(&self, id: NodeId) -> Option<&SkippedDecl> {
        self.index.get(&id).map(|&k| &self.skipped[k])
    }

    /// Parses a skipped declaration (with its correct locations).
    pub fn materialise(&self, id: NodeId) -> Result<Option<Node>> {
        let Some(d) = self.skipped_decl(id) else {
            return Ok(None);
        };
        let old = loc::set_state(d.state.clone());
        let r = parse_slice::<Node>(&self.json, d.span.clone());
        loc::set_state(old);
        r.map(Some)
    }

    /// The node with id `id`, wherever it is: a kept node, a skipped
    /// declaration, or a node nested inside one (such as an instantiation of
    /// a skipped function template). Skipped text is searched for the node's
    /// definition (an object whose `id` is followed by `kind` and then `loc`
    /// or `range`, which tells it from a `referencedDecl`), and the enclosing
    /// skipped declaration is parsed.
    pub fn find_node(&self, id: NodeId) -> Result<Option<Node>> {
        let mut found = None;
        for d in &self.decls {
            d.walk(&mut |n| {
                if found.is_none() && n.id == id {
                    found = Some(n.clone());
                }
            });
        }
        if found.is_some() {
            return Ok(found);
        }
        let needle = format!("\"0x{:x}\"", id.0);
        let b = self.json.as_bytes();
        for at in memchr::memmem::find_iter(b, needle.as_bytes()) {
            if !self.is_definition(at, at + needle.len()) {
                continue;
            }
            // The skipped declaration whose span holds this position.
            let k = self.skipped.partition_point(|d| d.span.end <= at);
            let Some(d) = self.skipped.get(k).filter(|d| d.span.start <= at) else {
                continue;
            };
            let Some(top) = self.materialise(d.id)? else {
                continue;
            };
            let mut hit = None;
            top.walk(&mut |n| {
                if hit.is_none() && n.id == id {
                    hit = Some(n.clone());
                }
            });
            if hit.is_some() {
                return Ok(hit);
            }
        }
        Ok(None)
    }

    /// True if the id value at `start..end` is a node's own `id` (followed
    /// by `kind` and then `loc` or `range`), not a reference.
    fn is_definition(&self, start: usize, end: usize) -> bool {
        let b = self.json.as_bytes();
        let before = self.json[..start].trim_end();
        let Some(before) = before.strip_suffix(':') else {
            return false;
        };
        if !before.trim_end().ends_with("\"id\"") {
            return false;
        }
        // , "kind": "X", then the next key.
        let mut i = scan::skip_ws(b, end);
        if b.get(i) != Some(&b',') {
            return false;
        }
        i = scan::skip_ws(b, i + 1);
        if !self.json[i..].starts_with("\"kind\"") {
            return false;
        }
        let mut facts = ScanFacts::default();
        let Ok(after_key) = scan::string_end(b, i) else {
            return false;
        };
        let v = scan::skip_ws(b, scan::skip_ws(b, after_key) + 1);
        let Ok(after_value) = scan::skip_value(&self.json, v, 0, None, &mut facts) else {
            return false;
        };
        let i = scan::skip_ws(b, after_value);
        if b.get(i) != Some(&b',') {
            return false;
        }
        let i = scan::skip_ws(b, i + 1);
        self.json[i..].starts_with("\"loc\"") || self.json[i..].starts_with("\"range\"")
    }

    /// Every `__global__` function definition, including each instantiation
    /// of a kernel template (but not the template pattern itself), in
    /// document order.
    pub fn kernels(&self) -> Vec<&Node> {
        fn collect<'a>(nodes: &'a [Node], out: &mut Vec<&'a Node>) {
            for n in nodes {
                match &n.kind {
                    Kind::NamespaceDecl | Kind::LinkageSpecDecl => collect(&n.inner, out),
                    Kind::FunctionTemplateDecl => {
                        let specializations =
                            n.inner.iter().filter(|c| c.is(&Kind::FunctionDecl)).skip(1);
                        out.extend(specializations.filter(|c| is_kernel_definition(c)));
                    }
                    _ if is_kernel_definition(n) => out.push(n),
                    _ => {}
                }
            }
        }
        let mut out = Vec::new();
        collect(&self.decls, &mut out);
        out
    }

    /// Every kept node by id (declarations, statements and expressions),
    /// for resolving `referencedDecl` and `referencedMemberDecl`.
    pub fn node_map(&self) -> HashMap<NodeId, &Node> {
        let mut map = HashMap::new();
        for d in &self.decls {
            d.walk(&mut |n| {
                map.insert(n.id, n);
            });
        }
        map
    }
}

fn is_kernel_definition(n: &Node) -> bool {
    n.is_kernel() && n.inner.iter().any(|c| c.is(&Kind::CompoundStmt))
}

/// True for headers of the C/C++ implementation (libc, libstdc++, clang's
/// own), whose declarations the lowering never needs in full: everything
/// else (the program's own headers) is kept, since kernels use its types.
pub fn is_system_header(file: &str) -> bool {
    // clang names libstdc++'s headers through its own directory, e.g.
    // `/usr/bin/../lib/gcc/x86_64-linux-gnu/12/../../../../include/c++/12/cmath`.
    const SYSTEM: [&str; 3] = ["/usr/", "/lib/", "/lib64/"];
    file.is_empty()
        || file.starts_with('<')
        || file.contains("/include/c++/")
        || SYSTEM.iter().any(|d| file.starts_with(d))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hand-written dump exercising the elision rules: `file` and `line`
    /// are omitted when unchanged from the previous location in document
    /// order, including locations inside skipped declarations.
    const DUMP: &str = r#"{
  "id": "0x1", "kind": "TranslationUnitDecl", "loc": {},
  "range": {"begin": {}, "end": {}},
  "inner": [
    {"id": "0x10", "kind": "TypedefDecl", "loc": {}, "range": {"begin": {}, "end": {}},
     "isImplicit": true, "name": "__int128_t", "type": {"qualType": "__int128"}},
    {"id": "0x11", "kind": "FunctionDecl",
     "loc": {"offset": 30, "file": "/usr/include/h.h", "line": 3, "col": 5, "tokLen": 3,
             "includedFrom": {"file": "main.cu"}},
     "range": {"begin": {"offset": 26, "col": 1, "tokLen": 3},
               "end": {"offset": 60, "line": 5, "col": 1, "tokLen": 1}},
     "name": "host_fn", "inner": [{"id": "0x12", "kind": "CompoundStmt",
        "range": {"begin": {"offset": 40, "line": 4, "col": 1, "tokLen": 1},
                  "end": {"offset": 60, "line": 5, "col": 1, "tokLen": 1}}}]},
    {"id": "0x20", "kind": "FunctionDecl",
     "loc": {"offset": 100, "file": "main.cu", "line": 10, "col": 17, "tokLen": 1},
     "range": {"begin": {"offset": 84, "col": 1, "tokLen": 10},
               "end": {"offset": 130, "line": 12, "col": 1, "tokLen": 1}},
     "name": "k", "mangledName": "_Z1kv", "type": {"qualType": "void ()"},
     "inner": [
       {"id": "0x21", "kind": "CompoundStmt",
        "range": {"begin": {"offset": 104, "line": 10, "col": 21, "tokLen": 1},
                  "end": {"offset": 130, "line": 12, "col": 1, "tokLen": 1}},
        "inner": [{"id": "0x22", "kind": "InitListExpr",
           "range": {"begin": {"offset": 110, "line": 11, "col": 3, "tokLen": 1},
                     "end": {"offset": 112, "col": 5, "tokLen": 1}},
           "weird": {"loc": {"offset": 200, "line": 20, "col": 1, "tokLen": 1}},
           "array_filler": [{"id": "0x23", "kind": "ImplicitValueInitExpr",
              "range": {"begin": {"offset": 113, "line": 11, "col": 6, "tokLen": 1},
                        "end": {"offset": 113, "col": 6, "tokLen": 1}}}]}]},
       {"id": "0x24", "kind": "CUDAGlobalAttr",
        "range": {"begin": {"spellingLoc": {"offset": 50, "file": "/usr/include/defs.h", "line": 7, "col": 20, "tokLen": 6},
                            "expansionLoc": {"offset": 84, "file": "main.cu", "line": 10, "col": 1, "tokLen": 10}},
                  "end": {"spellingLoc": {"offset": 50, "file": "/usr/include/defs.h", "line": 7, "col": 20, "tokLen": 6},
                          "expansionLoc": {"offset": 84, "file": "main.cu", "line": 10, "col": 1, "tokLen": 10}}}}
     ]},
    {"id": "0x30", "kind": "NamespaceDecl",
     "loc": {"offset": 5, "file": "/usr/include/sys.h", "line": 1, "col": 11, "tokLen": 3},
     "range": {"begin": {"offset": 0, "col": 1, "tokLen": 9},
               "end": {"offset": 900, "line": 90, "col": 1, "tokLen": 1}},
     "name": "std",
     "inner": [
       {"id": "0x31", "kind": "FunctionDecl",
        "loc": {"offset": 20, "line": 2, "col": 5, "tokLen": 3},
        "range": {"begin": {"offset": 16, "col": 1, "tokLen": 3},
                  "end": {"offset": 70, "line": 6, "col": 1, "tokLen": 1}},
        "name": "skipped_in_std", "value": "\"file\": \"fake.h\", \"line\": 99"},
       {"id": "0x32", "kind": "FunctionDecl",
        "loc": {"offset": 10, "file": "/inc/x.h", "line": 8, "col": 5, "tokLen": 3},
        "range": {"begin": {"offset": 6, "col": 1, "tokLen": 3},
                  "end": {"offset": 12, "col": 9, "tokLen": 1}},
        "name": "kept_in_std"},
       {"id": "0x33", "kind": "VarDecl",
        "loc": {"offset": 300, "file": "main.cu", "line": 30, "col": 1, "tokLen": 1},
        "range": {"begin": {"offset": 300, "col": 1, "tokLen": 1},
                  "end": {"offset": 301, "col": 2, "tokLen": 1}},
        "name": "in_main_via_std"}
     ]},
    {"id": "0x40", "kind": "VarDecl",
     "loc": {"offset": 320, "col": 3, "tokLen": 1},
     "range": {"begin": {"offset": 318, "line": 31, "col": 1, "tokLen": 1},
               "end": {"offset": 321, "col": 4, "tokLen": 1}},
     "name": "after_container"},
    {"id": "0x50", "kind": "FunctionDecl",
     "loc": {"offset": 40, "file": "/usr/include/other.h", "line": 50, "col": 1, "tokLen": 1},
     "range": {"begin": {"offset": 40, "col": 1, "tokLen": 1},
               "end": {"offset": 400, "file": "main.cu", "line": 40, "col": 1, "tokLen": 1}},
     "name": "ends_in_main"},
    {"id": "0x60", "kind": "VarDecl",
     "loc": {"offset": 410, "col": 7, "tokLen": 1},
     "range": {"begin": {"offset": 404, "col": 1, "tokLen": 1},
               "end": {"offset": 411, "col": 8, "tokLen": 1}},
     "name": "same_line_as_skipped_end"}
  ]
}"#;

    fn opts() -> ReadOptions {
        ReadOptions {
            main_file: "main.cu".into(),
            keep_dirs: vec!["/inc/".into()],
            keep_device_decls: false,
        }
    }

    fn find<'a>(nodes: &'a [Node], name: &str) -> Option<&'a Node> {
        let mut found = None;
        for n in nodes {
            n.walk(&mut |m| {
                if found.is_none() && m.name.as_deref() == Some(name) {
                    found = Some(m);
                }
            });
        }
        found
    }

    fn at(n: &Node) -> (String, u32) {
        let l = n.loc.as_ref().unwrap();
        (l.file().to_string(), l.line())
    }

    #[test]
    fn resolves_elided_files_and_lines() {
        let tu = TranslationUnit::read(DUMP.to_string(), &opts()).unwrap();
        let k = find(&tu.decls, "k").unwrap();
        assert_eq!(at(k), ("main.cu".into(), 10));
        assert_eq!(k.mangled_name.as_deref(), Some("_Z1kv"));
        let r = k.range.as_ref().unwrap();
        assert_eq!(r.begin.as_ref().unwrap().line(), 10);
        assert_eq!(r.end.as_ref().unwrap().line(), 12);
        // Inside: the unknown field's location (line 20) is followed by the
        // filler, which states its line again; its end elides it.
        let filler = &k.inner[0].inner[0].array_filler[0];
        assert_eq!(
            filler.range.as_ref().unwrap().end.as_ref().unwrap().line(),
            11
        );
        // A macro location: spelling in defs.h, expansion in main.cu.
        let attr = &k.inner[1];
        let begin = attr.range.as_ref().unwrap().begin.as_ref().unwrap();
        assert_eq!(begin.file(), "main.cu");
        assert_eq!(
            begin.spelling.as_ref().unwrap().file.as_ref(),
            "/usr/include/defs.h"
        );
        assert!(k.is_kernel());
        assert_eq!(tu.kernels().len(), 1);
    }

    #[test]
    fn follows_state_across_skipped_declarations() {
        let tu = TranslationUnit::read(DUMP.to_string(), &opts()).unwrap();
        // The namespace from sys.h is kept with only its kept members.
        let ns = tu
            .decls
            .iter()
            .find(|n| n.is(&Kind::NamespaceDecl))
            .unwrap();
        let names: Vec<_> = ns.inner.iter().map(|n| n.name.clone().unwrap()).collect();
        assert_eq!(names, ["kept_in_std", "in_main_via_std"]);
        assert_eq!(at(&ns.inner[0]), ("/inc/x.h".into(), 8));
        // The string value mentioning "file" and "line" did not confuse the scan.
        assert_eq!(
            at(find(&tu.decls, "in_main_via_std").unwrap()),
            ("main.cu".into(), 30)
        );
        // After the container: file elided, line taken from the range that follows.
        let after = find(&tu.decls, "after_container").unwrap();
        assert_eq!(at(after), ("main.cu".into(), 30));
        assert_eq!(
            after.range.as_ref().unwrap().begin.as_ref().unwrap().line(),
            31
        );
        // A skipped declaration whose last location is in main.cu line 40.
        assert_eq!(
            at(find(&tu.decls, "same_line_as_skipped_end").unwrap()),
            ("main.cu".into(), 40)
        );
        assert!(find(&tu.decls, "host_fn").is_none());
        assert!(find(&tu.decls, "ends_in_main").is_none());
        assert_eq!(tu.stats.skipped, 4);
    }

    #[test]
    fn skipped_declarations_keep_names_written_after_flags() {
        // clang writes `isImplicit`/`isReferenced` before `name`; type
        // aliases are looked up among the skipped declarations by name.
        let tu = TranslationUnit::read(DUMP.to_string(), &opts()).unwrap();
        let d = tu.skipped_decl(NodeId(0x10)).unwrap();
        assert_eq!(d.name.as_deref(), Some("__int128_t"));
        let n = tu.materialise(NodeId(0x10)).unwrap().unwrap();
        assert_eq!(n.ty.unwrap().qual_type, "__int128");
    }

    #[test]
    fn materialises_skipped_declarations_with_their_locations() {
        let tu = TranslationUnit::read(DUMP.to_string(), &opts()).unwrap();
        let host = tu.materialise(NodeId(0x11)).unwrap().unwrap();
        assert_eq!(at(&host), ("/usr/include/h.h".into(), 3));
        let body = &host.inner[0];
        assert_eq!(
            body.range.as_ref().unwrap().begin.as_ref().unwrap().file(),
            "/usr/include/h.h"
        );
        let in_std = tu.materialise(NodeId(0x31)).unwrap().unwrap();
        assert_eq!(at(&in_std), ("/usr/include/sys.h".into(), 2));
        assert!(tu.materialise(NodeId(0x20)).unwrap().is_none());
    }

    #[test]
    fn finds_nested_nodes_of_skipped_declarations() {
        let tu = TranslationUnit::read(DUMP.to_string(), &opts()).unwrap();
        // Nested in the skipped host_fn.
        let body = tu.find_node(NodeId(0x12)).unwrap().unwrap();
        assert!(body.is(&Kind::CompoundStmt));
        assert_eq!(
            body.range.unwrap().begin.unwrap().file(),
            "/usr/include/h.h"
        );
        // Kept nodes are found too; unknown ids are not.
        assert!(tu.find_node(NodeId(0x23)).unwrap().is_some());
        assert!(tu.find_node(NodeId(0x999)).unwrap().is_none());
    }

    #[test]
    fn full_parse_matches_selective_read() {
        let full = parse_all(DUMP).unwrap();
        let tu = TranslationUnit::read(DUMP.to_string(), &opts()).unwrap();
        for name in [
            "k",
            "in_main_via_std",
            "after_container",
            "same_line_as_skipped_end",
        ] {
            let a = find(&full.inner, name).unwrap();
            let b = find(&tu.decls, name).unwrap();
            assert_eq!(a.loc, b.loc, "{name}");
            assert_eq!(a.range, b.range, "{name}");
        }
    }

    #[test]
    fn rejects_malformed_json_with_an_offset() {
        let err = TranslationUnit::read(r#"{"inner": [{"id": "0x1", "kind": "#.into(), &opts())
            .unwrap_err();
        assert!(matches!(err, FrontendError::Json { .. }), "{err}");
        let err = TranslationUnit::read("[]".into(), &opts()).unwrap_err();
        assert!(err.to_string().contains("byte 0"), "{err}");
    }
}
