//! clang's JSON AST: a serde model of its nodes and a selective reader.
//!
//! [`TranslationUnit::read`] reads what `clang -Xclang -ast-dump=json`
//! writes, keeps the declarations the lowering needs (see [`reader`]) and
//! resolves clang's location elision (see [`loc`]).

pub mod kind;
pub mod loc;
pub mod node;
pub mod reader;
pub mod scan;

pub use kind::Kind;
pub use loc::{BareLoc, LocState, SourceLocation, SourceRange};
pub use node::{DeclRef, LiteralValue, Node, NodeId, QualType, ValueCategory};
pub use reader::{parse_all, ReadOptions, ReadStats, SkippedDecl, TranslationUnit};
