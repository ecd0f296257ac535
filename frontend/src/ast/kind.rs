//! Node kinds of clang's AST (the JSON `kind` field).

macro_rules! kinds {
    ($($name:ident),* $(,)?) => {
        /// A node's `kind`. The kinds the lowering handles are named;
        /// everything else is kept as [`Kind::Other`] with its spelling.
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        #[allow(missing_docs)]
        pub enum Kind {
            $($name,)*
            /// A kind without a variant here.
            Other(Box<str>),
        }

        impl Kind {
            /// The kind named `s`.
            pub fn from_name(s: &str) -> Kind {
                match s {
                    $(stringify!($name) => Kind::$name,)*
                    _ => Kind::Other(s.into()),
                }
            }

            /// The kind's name as clang spells it.
            pub fn name(&self) -> &str {
                match self {
                    $(Kind::$name => stringify!($name),)*
                    Kind::Other(s) => s,
                }
            }
        }
    };
}

kinds! {
    // Declarations.
    TranslationUnitDecl, NamespaceDecl, LinkageSpecDecl, UsingDecl, UsingDirectiveDecl,
    UsingShadowDecl, FunctionDecl, CXXMethodDecl, CXXConstructorDecl, CXXDestructorDecl,
    CXXConversionDecl, ParmVarDecl, VarDecl, FieldDecl, IndirectFieldDecl, RecordDecl,
    CXXRecordDecl, ClassTemplateDecl, ClassTemplateSpecializationDecl,
    ClassTemplatePartialSpecializationDecl, FunctionTemplateDecl, TemplateTypeParmDecl,
    NonTypeTemplateParmDecl, TemplateArgument, EnumDecl, EnumConstantDecl, TypedefDecl,
    TypeAliasDecl, TypeAliasTemplateDecl, StaticAssertDecl, AccessSpecDecl, FriendDecl,
    CXXCtorInitializer, VarTemplateDecl, VarTemplateSpecializationDecl,
    // Attributes.
    CUDAGlobalAttr, CUDADeviceAttr, CUDAHostAttr, CUDASharedAttr, CUDAConstantAttr,
    CUDALaunchBoundsAttr, AnnotateAttr, AlignedAttr, AlwaysInlineAttr, NoInlineAttr,
    // Statements.
    CompoundStmt, DeclStmt, NullStmt, ReturnStmt, IfStmt, ForStmt, WhileStmt, DoStmt,
    BreakStmt, ContinueStmt, SwitchStmt, CaseStmt, DefaultStmt, LabelStmt, GotoStmt,
    CXXForRangeStmt, AttributedStmt,
    // Expressions.
    IntegerLiteral, FloatingLiteral, CharacterLiteral, StringLiteral, CXXBoolLiteralExpr,
    CXXNullPtrLiteralExpr, DeclRefExpr, MemberExpr, ArraySubscriptExpr, CallExpr,
    CXXMemberCallExpr, CXXOperatorCallExpr, CUDAKernelCallExpr, UnaryOperator, BinaryOperator,
    CompoundAssignOperator, ConditionalOperator, BinaryConditionalOperator, ImplicitCastExpr,
    CStyleCastExpr, CXXStaticCastExpr, CXXReinterpretCastExpr, CXXConstCastExpr,
    CXXFunctionalCastExpr, ParenExpr, InitListExpr, ImplicitValueInitExpr,
    CXXConstructExpr, CXXTemporaryObjectExpr, CXXThisExpr, CXXDefaultArgExpr,
    CXXDefaultInitExpr, MaterializeTemporaryExpr, ExprWithCleanups, CXXBindTemporaryExpr,
    ConstantExpr, UnaryExprOrTypeTraitExpr, SubstNonTypeTemplateParmExpr, LambdaExpr,
    CXXNewExpr, CXXDeleteExpr, ArrayInitLoopExpr, ArrayInitIndexExpr, OpaqueValueExpr,
    PredefinedExpr, CXXStdInitializerListExpr, CXXNoexceptExpr, CXXDependentScopeMemberExpr,
    UnresolvedLookupExpr, UnresolvedMemberExpr, CXXUnresolvedConstructExpr,
    ParenListExpr, CXXThrowExpr, StmtExpr, VAArgExpr, TypeTraitExpr,
}

impl Default for Kind {
    fn default() -> Kind {
        Kind::Other("".into())
    }
}

impl Kind {
    /// True for the CUDA execution-space and memory-space attributes.
    pub fn is_cuda_attr(&self) -> bool {
        matches!(
            self,
            Kind::CUDAGlobalAttr
                | Kind::CUDADeviceAttr
                | Kind::CUDAHostAttr
                | Kind::CUDASharedAttr
                | Kind::CUDAConstantAttr
        )
    }

    /// True for variable declarations, including a variable template's
    /// instances (`template <class T> __constant__ T c[4];` used as `c<float>`).
    pub fn is_variable(&self) -> bool {
        matches!(self, Kind::VarDecl | Kind::VarTemplateSpecializationDecl)
    }

    /// True for function declarations of every flavour.
    pub fn is_function(&self) -> bool {
        matches!(
            self,
            Kind::FunctionDecl
                | Kind::CXXMethodDecl
                | Kind::CXXConstructorDecl
                | Kind::CXXDestructorDecl
                | Kind::CXXConversionDecl
        )
    }

    /// True for the declarations the reader descends into when they come
    /// from headers (their members are judged one by one).
    pub fn is_container(&self) -> bool {
        matches!(self, Kind::NamespaceDecl | Kind::LinkageSpecDecl)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_names() {
        assert_eq!(Kind::from_name("CUDAGlobalAttr"), Kind::CUDAGlobalAttr);
        assert_eq!(Kind::from_name("CUDAGlobalAttr").name(), "CUDAGlobalAttr");
        let other = Kind::from_name("OMPParallelDirective");
        assert_eq!(other.name(), "OMPParallelDirective");
        assert!(matches!(other, Kind::Other(_)));
    }
}
