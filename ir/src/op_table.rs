//! The machinery behind the op table in [`crate::ops`].
//!
//! `op_table!` takes one row per op: the `OpKind` variant (with its docs and
//! attribute fields) and the op's bookkeeping: text-format name, flags,
//! operand and result arity, region count and text syntax. From the rows it
//! generates `OpKind`, its field-less twin `OpCode`, and every function that
//! used to repeat that bookkeeping by hand (`mnemonic`, `is_pure`,
//! `region_count`, the name lookup the parser uses, the arities the verifier
//! checks), so declaring an op is one row. What an op's attributes look like
//! in text, and what types it accepts, stay hand-written next to the parser,
//! printer and verifier.
//!
//! A row reads
//!
//! ```text
//! Variant [(Fields) | { fields }] => {
//!     name: "text" | (KeywordEnum) | [(Variant { attrs }) "text", ...],
//!     flags: [pure, terminator],
//!     operands: ARITY, results: ARITY, regions: N,
//!     syntax: Plain | Attrs | Custom | Structured,
//! }
//! ```
//!
//! A name is one literal; or a keyword enum (`(BinOp)`): the op's first
//! field is a value of that enum and its keyword is the mnemonic; or a list
//! of attribute patterns with their names (`clock` / `clock64`). An arity is
//! an [`Arity`](crate::ops::Arity), or a closure `|k: &OpKind| ...` for the
//! few ops whose arity depends on their attributes.

/// Generates `OpKind`, `OpCode` and their bookkeeping from the op rows; see
/// the module docs for the row syntax.
macro_rules! op_table {
    // ---- helpers, in expression position ----------------------------------
    (@flag $want:ident []) => { false };
    (@flag pure [pure $($rest:ident)*]) => { true };
    (@flag terminator [terminator $($rest:ident)*]) => { true };
    (@flag $want:ident [$other:ident $($rest:ident)*]) => {
        op_table!(@flag $want [$($rest)*])
    };

    // The mnemonic of `$this`, already known to be an `OpKind::$v`.
    (@mnemonic $this:ident $v:ident $lit:literal) => {{
        let _ = $this;
        $lit
    }};
    (@mnemonic $this:ident $v:ident ($family:ident)) => {
        match $this {
            OpKind::$v(k, ..) => k.name(),
            _ => unreachable!(concat!("op table: not an OpKind::", stringify!($v))),
        }
    };
    (@mnemonic $this:ident $v:ident [$( ($($pat:tt)*) $lit:literal ),+ $(,)?]) => {
        match $this {
            $( OpKind::$($pat)* => $lit, )+
            _ => unreachable!(concat!("op table: not an OpKind::", stringify!($v))),
        }
    };

    // Every mnemonic of one row.
    (@names $v:ident $lit:literal) => { vec![$lit] };
    (@names $v:ident ($family:ident)) => { $family::ALL.iter().map(|k| k.name()).collect() };
    (@names $v:ident [$( ($($pat:tt)*) $lit:literal ),+ $(,)?]) => { vec![$($lit),+] };

    // What the text `$name` starts, if it names this row's op.
    (@head $name:ident $v:ident [] [] $lit:literal) => {
        ($name == $lit).then_some(OpHead::Kind(OpKind::$v))
    };
    (@head $name:ident $v:ident [$($tuple:tt)*] [$($fields:tt)*] $lit:literal) => {
        ($name == $lit).then_some(OpHead::Code(OpCode::$v))
    };
    (@head $name:ident $v:ident [($first:ty $(, $rest:ty)*)] [] ($family:ident)) => {
        $family::from_name($name)
            .map(|k| OpHead::Kind(OpKind::$v(k $(, <$rest>::default())*)))
    };
    (@head $name:ident $v:ident [$($tuple:tt)*] [$($fields:tt)*]
        [$( ($($pat:tt)*) $lit:literal ),+ $(,)?]) => {
        match $name {
            $( $lit => Some(OpHead::Kind(OpKind::$($pat)*)), )+
            _ => None,
        }
    };

    // ---- the table --------------------------------------------------------
    ($(#[$kind_doc:meta])*
     enum OpKind {
        $(
            $(#[$doc:meta])*
            $v:ident
            $( ( $($tf:ty),+ $(,)? ) )?
            $( { $( $(#[$fdoc:meta])* $f:ident : $ft:ty ),+ $(,)? } )?
            => {
                name: $name:tt,
                flags: [$($flag:ident),* $(,)?],
                operands: $operands:expr,
                results: $results:expr,
                regions: $regions:literal,
                syntax: $syntax:ident $(,)?
            }
        ),* $(,)?
    }) => {
        $(#[$kind_doc])*
        #[derive(Clone, Debug, PartialEq)]
        pub enum OpKind {
            $(
                $(#[$doc])*
                $v $( ( $($tf),+ ) )? $( { $( $(#[$fdoc])* $f : $ft ),+ } )?,
            )*
        }

        /// An op's variant without its attributes: one per row of the op table.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum OpCode {
            $(
                #[doc = concat!("[`OpKind::", stringify!($v), "`].")]
                $v,
            )*
        }

        impl OpCode {
            /// Every op, in table order.
            pub const ALL: &'static [OpCode] = &[$(OpCode::$v,)*];

            /// The `OpKind` variant's name (`"Binary"`), for messages and tests.
            pub fn variant_name(self) -> &'static str {
                match self { $(OpCode::$v => stringify!($v),)* }
            }

            /// Every text-format mnemonic of the op (several for keyword
            /// families such as the binary ops, and for `clock`/`clock64`).
            pub fn mnemonics(self) -> Vec<&'static str> {
                match self { $(OpCode::$v => op_table!(@names $v $name),)* }
            }

            /// True if the op has no effect besides producing its results, so
            /// it may be removed when unused, hoisted or duplicated.
            pub fn is_pure(self) -> bool {
                match self { $(OpCode::$v => op_table!(@flag pure [$($flag)*]),)* }
            }

            /// True for ops that end a region.
            pub fn is_terminator(self) -> bool {
                match self { $(OpCode::$v => op_table!(@flag terminator [$($flag)*]),)* }
            }

            /// Number of regions the op carries.
            pub fn region_count(self) -> usize {
                match self { $(OpCode::$v => $regions,)* }
            }

            /// How the op is written in the text format.
            pub fn syntax(self) -> OpSyntax {
                match self { $(OpCode::$v => OpSyntax::$syntax,)* }
            }
        }

        impl OpKind {
            /// The op's row in the op table.
            pub fn code(&self) -> OpCode {
                match self { $(OpKind::$v { .. } => OpCode::$v,)* }
            }

            /// The op's text-format mnemonic (attributes are printed separately).
            pub fn mnemonic(&self) -> &'static str {
                match self {
                    $(this @ OpKind::$v { .. } => op_table!(@mnemonic this $v $name),)*
                }
            }

            /// How many operands the op takes.
            pub fn operand_arity(&self) -> Arity {
                match self {
                    $(OpKind::$v { .. } => ArityRule::arity(&$operands, self),)*
                }
            }

            /// How many results the op has.
            pub fn result_arity(&self) -> Arity {
                match self {
                    $(OpKind::$v { .. } => ArityRule::arity(&$results, self),)*
                }
            }

            /// What the mnemonic `name` starts, or `None` if no op has it.
            pub fn from_mnemonic(name: &str) -> Option<OpHead> {
                $(
                    if let Some(head) = op_table!(
                        @head name $v [$( ($($tf),+) )?] [$( { $($f),+ } )?] $name
                    ) {
                        return Some(head);
                    }
                )*
                None
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use crate::ops::{OpCode, OpHead, OpKind, OpSyntax};
    use std::collections::BTreeMap;

    #[test]
    fn mnemonics_name_one_op_each() {
        let mut owner = BTreeMap::new();
        for &code in OpCode::ALL {
            for name in code.mnemonics() {
                if let Some(other) = owner.insert(name, code) {
                    panic!("`{name}` names both {other:?} and {code:?}");
                }
                let head = OpKind::from_mnemonic(name).expect("known mnemonic");
                assert_eq!(head.code(), code, "`{name}`");
                match head {
                    OpHead::Kind(kind) => assert_eq!(kind.mnemonic(), name),
                    // Only the parser's attribute hooks can finish the kind.
                    OpHead::Code(_) => assert_ne!(code.syntax(), OpSyntax::Plain, "`{name}`"),
                }
            }
        }
        assert_eq!(OpKind::from_mnemonic("frobnicate"), None);
    }

    #[test]
    fn regions_only_on_structured_ops() {
        for &code in OpCode::ALL {
            let structured = code.syntax() == OpSyntax::Structured;
            assert_eq!(code.region_count() > 0, structured, "{code:?}");
            assert!(!(code.is_pure() && code.is_terminator()), "{code:?}");
        }
    }
}
