//! Lowering of a `.cu` translation unit's device side to `cucc-ir`.
//!
//! [`lower_file`] runs clang in CUDA device mode, reads its JSON AST and
//! lowers every `__global__` function definition (each instantiation of a
//! kernel template included) and every device function they reach, with
//! the globals they use, to one [`Module`]. The modules:
//!
//! - `ctype`: clang's type spellings parsed into C types;
//! - `records`: record and enum lookup, C/Itanium record layouts;
//! - `globals`: `__device__`/`__constant__`/`__shared__` variables,
//!   texture references, string literals, initialisers evaluated to bytes;
//! - `func`: functions, locals and statements, made structured;
//! - `expr`: expressions;
//! - `builtins`: CUDA's built-in variables and intrinsics;
//! - `asm_syntax`, `inline_asm`: inline PTX, lowered by the PTX frontend;
//! - `diag`: clang-style diagnostics.

pub mod aliases;
pub mod asm_syntax;
pub mod builtins;
pub mod ctype;
pub mod diag;
pub mod expr;
pub mod fnptr;
pub mod func;
pub mod globals;
pub mod goto;
pub mod inline_asm;
pub mod lambda;
pub mod library;
pub mod records;
pub mod warp_sync;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use cucc_ir::link::is_internal_name;
use cucc_ir::{FuncId, Function, FunctionKind, GlobalId, Linkage, Loc, Module};

use crate::ast::{Kind, Node, NodeId, TranslationUnit};
use crate::clang::ClangOptions;
pub use diag::{DiagLoc, Diagnostic, Diagnostics};
use records::{Layout, RecordIndex};

/// Options of one lowering: what reaches clang.
#[derive(Clone, Debug, Default)]
pub struct LowerOptions {
    /// `-I` directories.
    pub include_dirs: Vec<PathBuf>,
    /// `-D` definitions, `NAME` or `NAME=VALUE`.
    pub defines: Vec<String>,
    /// `-std=` value, e.g. `c++17`.
    pub std: Option<String>,
    /// `--cuda-gpu-arch`, e.g. `sm_70`.
    pub gpu_arch: Option<String>,
    /// Separate compilation (`-rdc=true`): device functions and variables
    /// this unit only declares become imports, and its external device
    /// functions are all lowered (other units may call them).
    pub relocatable: bool,
    /// Further clang arguments passed verbatim (`-isystem DIR`, `-iquote
    /// DIR`): where headers are found must match the host compile.
    pub extra: Vec<std::ffi::OsString>,
}

impl LowerOptions {
    fn clang(&self) -> ClangOptions {
        ClangOptions {
            include_dirs: self.include_dirs.clone(),
            defines: self.defines.clone(),
            gpu_arch: self.gpu_arch.clone(),
            std: self.std.clone(),
            extra: self.extra.clone(),
        }
    }
}

/// Lowers the device side of the CUDA file `path`. Errors are clang's own
/// diagnostics (verbatim) or cucc's, clang-style with source snippets.
pub fn lower_file(path: &Path, opts: &LowerOptions) -> Result<Module, Diagnostics> {
    let tu =
        crate::read_cuda(path, &opts.clang()).map_err(|e| Diagnostics::verbatim(e.to_string()))?;
    let main = path.display().to_string();
    let mut diags = match lower_unit_with(&tu, &main, opts.relocatable) {
        Ok(m) => return Ok(m),
        Err(d) => d,
    };
    if let Ok(text) = std::fs::read_to_string(path) {
        diags.source = Some((main, text));
    }
    Err(diags)
}

/// Lowers CUDA source text (written to a temporary file named `name` for
/// clang); for tests and tools.
pub fn lower_source(name: &str, source: &str, opts: &LowerOptions) -> Result<Module, Diagnostics> {
    let dir = std::env::temp_dir().join(format!(
        "cucc-lower-{}-{}",
        std::process::id(),
        TEMP_COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir)
        .map_err(|e| Diagnostics::verbatim(format!("cannot create {}: {e}", dir.display())))?;
    let path = dir.join(name);
    std::fs::write(&path, source)
        .map_err(|e| Diagnostics::verbatim(format!("cannot write {}: {e}", path.display())))?;
    // clang reports the file by the name it was given: run it from `dir`
    // so diagnostics say `name`.
    let r = (|| {
        let clang =
            crate::clang::Clang::discover().map_err(|e| Diagnostics::verbatim(e.to_string()))?;
        let mut args = clang
            .cuda_args(
                Path::new(name),
                crate::clang::CudaSide::Device,
                &opts.clang(),
            )
            .map_err(|e| Diagnostics::verbatim(e.to_string()))?;
        let src = args.pop();
        args.push("-Xclang".into());
        args.push("-ast-dump=json".into());
        args.extend(src);
        let out = std::process::Command::new(&clang.path)
            .current_dir(&dir)
            .args(&args)
            .output()
            .map_err(|e| Diagnostics::verbatim(format!("cannot run clang: {e}")))?;
        if !out.status.success() {
            return Err(Diagnostics::verbatim(
                String::from_utf8_lossy(&out.stderr).into_owned(),
            ));
        }
        let json = String::from_utf8_lossy(&out.stdout).into_owned();
        let read_opts = crate::ast::ReadOptions {
            main_file: name.to_string(),
            keep_dirs: vec![crate::clang::include_dir().display().to_string()],
            keep_device_decls: false,
        };
        let tu = TranslationUnit::read(json, &read_opts)
            .map_err(|e| Diagnostics::verbatim(e.to_string()))?;
        lower_unit_in(&tu, name, opts.relocatable, Some(&dir))
    })();
    let _ = std::fs::remove_dir_all(&dir);
    r.map_err(|mut d| {
        d.source = Some((name.to_string(), source.to_string()));
        d
    })
}

static TEMP_COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Lowers an AST already read.
pub fn lower_unit(tu: &TranslationUnit, main_file: &str) -> Result<Module, Diagnostics> {
    lower_unit_with(tu, main_file, false)
}

/// Lowers an AST already read, for whole-program or separate compilation.
pub fn lower_unit_with(
    tu: &TranslationUnit,
    main_file: &str,
    relocatable: bool,
) -> Result<Module, Diagnostics> {
    lower_unit_in(tu, main_file, relocatable, None)
}

/// [`lower_unit_with`], for clang run in `dir` (file names in the AST are
/// relative to it; `asm` statements are read from those files).
fn lower_unit_in(
    tu: &TranslationUnit,
    main_file: &str,
    relocatable: bool,
    dir: Option<&Path>,
) -> Result<Module, Diagnostics> {
    let library = library::fetch(tu, &tu.node_map());
    let mut cx = ModCx::new(tu, &library);
    cx.relocatable = relocatable;
    cx.source_dir = dir.map(Path::to_path_buf);
    cx.module.file_id(main_file);
    cx.run();
    if relocatable {
        cx.export_device_functions(main_file);
    }
    // Inline PTX bodies come in after the export: they stay internal.
    let units = std::mem::take(&mut cx.asm_units);
    if let Err(e) = inline_asm::link(&mut cx.module, units) {
        cx.errors.push(Diagnostic::new(
            DiagLoc {
                file: main_file.to_string(),
                ..DiagLoc::default()
            },
            format!("internal error: linking inline PTX: {e}"),
        ));
    }
    // Warp-synchronous code through volatile shared memory runs as the
    // lockstep it was written for.
    cucc_ir::lockstep::insert_warp_barriers(&mut cx.module);
    if cx.errors.is_empty() {
        if let Err(e) = cucc_ir::verify_module(&cx.module) {
            cx.errors.push(Diagnostic::new(
                DiagLoc {
                    file: main_file.to_string(),
                    ..DiagLoc::default()
                },
                format!("internal error: the lowered IR does not verify:\n{e}"),
            ));
        }
    }
    if cx.errors.is_empty() {
        Ok(cx.module)
    } else {
        Err(Diagnostics {
            errors: cx.errors,
            source: None,
        })
    }
}

/// A lowered function's calling convention.
#[derive(Clone, Debug)]
pub struct Sig {
    /// The IR function.
    pub id: FuncId,
    /// C parameter types (without `this`).
    pub params: Vec<ctype::CType>,
    /// C result type.
    pub ret: ctype::CType,
    /// The result is an aggregate returned through a leading pointer.
    pub sret: bool,
    /// A `this` pointer precedes the parameters.
    pub has_this: bool,
}

/// State of one module's lowering.
pub struct ModCx<'a> {
    /// The AST.
    pub tu: &'a TranslationUnit,
    /// Every kept node by id.
    pub nodes: HashMap<NodeId, &'a Node>,
    /// Function definitions by mangled name.
    pub definitions: HashMap<String, &'a Node>,
    /// The module being built.
    pub module: Module,
    /// Records and enums.
    pub records: RecordIndex<'a>,
    /// Type aliases (`typedef`, `using`) met inside type spellings.
    pub aliases: aliases::Aliases,
    /// Device functions whose address is taken (declaration, definition):
    /// a pointer to the k-th is the number k + 1 (see [`fnptr`]).
    pub fn_ptrs: Vec<(&'a Node, &'a Node)>,
    /// Lambdas' closure classes, by the ids of their call operators.
    pub lambdas: HashMap<NodeId, Rc<lambda::Closure<'a>>>,
    /// Computed layouts by record id.
    pub layouts: HashMap<NodeId, Rc<Layout>>,
    /// Records being laid out (to catch self-containment).
    pub laying_out: HashSet<NodeId>,
    /// Field id -> record id, for laid-out records.
    pub field_owner: HashMap<NodeId, NodeId>,
    /// Layouts of anonymous records by their spelling.
    pub anon_records: HashMap<String, Rc<Layout>>,
    /// Signatures of requested functions, by definition id.
    pub sigs: HashMap<NodeId, Rc<Sig>>,
    /// Functions still to lower.
    pub queue: Vec<&'a Node>,
    /// Call graph edges (caller, callee, call site) for recursion checks.
    pub calls: Vec<(FuncId, FuncId, Loc, DiagLoc)>,
    /// Globals by declaration id.
    pub globals: HashMap<NodeId, GlobalId>,
    /// String literal globals by contents.
    pub strings: HashMap<Vec<u8>, GlobalId>,
    /// Errors found so far.
    pub errors: Vec<Diagnostic>,
    /// Separate compilation: see [`LowerOptions::relocatable`].
    pub relocatable: bool,
    /// The PTX frontend's modules of the inline-PTX functions, one per
    /// `asm` statement ([`inline_asm`]), linked in after lowering.
    pub asm_units: Vec<Module>,
    /// Source files read for `asm` statements' text (`None`: unreadable).
    pub source_texts: HashMap<String, Option<Vec<u8>>>,
    /// The directory clang ran in, for relative file names.
    pub source_dir: Option<PathBuf>,
}

impl<'a> ModCx<'a> {
    /// `library`: the library functions fetched for device code (see
    /// [`library::fetch`]).
    fn new(tu: &'a TranslationUnit, library: &'a [Node]) -> ModCx<'a> {
        let mut nodes = tu.node_map();
        for f in library {
            f.walk(&mut |n| {
                nodes.entry(n.id).or_insert(n);
            });
        }
        let mut definitions = HashMap::new();
        for n in nodes.values() {
            if n.kind.is_function() && n.inner.iter().any(|c| c.kind == Kind::CompoundStmt) {
                if let Some(m) = &n.mangled_name {
                    definitions.insert(m.clone(), *n);
                }
            }
        }
        let lambdas = lambda::index(&tu.decls);
        let mut records = RecordIndex::build(&tu.decls);
        for c in lambdas.values() {
            records.add_closure(&c.key, c.record);
        }
        ModCx {
            tu,
            nodes,
            definitions,
            module: Module::new(),
            records,
            aliases: aliases::Aliases::build(&tu.decls),
            lambdas,
            fn_ptrs: Vec::new(),
            layouts: HashMap::new(),
            laying_out: HashSet::new(),
            field_owner: HashMap::new(),
            anon_records: HashMap::new(),
            sigs: HashMap::new(),
            queue: Vec::new(),
            calls: Vec::new(),
            globals: HashMap::new(),
            strings: HashMap::new(),
            errors: Vec::new(),
            relocatable: false,
            asm_units: Vec::new(),
            source_texts: HashMap::new(),
            source_dir: None,
        }
    }

    /// The location of `node` as an IR `Loc`.
    pub fn loc(&mut self, node: &Node) -> Loc {
        match node.user_loc() {
            Some(l) => {
                let file = self.module.file_id(l.file());
                Loc::new(file, l.expansion.line, l.expansion.col)
            }
            None => Loc::UNKNOWN,
        }
    }

    /// The definition of the function declared by `decl` (itself if it has
    /// a body), if there is one.
    pub fn definition(&self, decl: &'a Node) -> Option<&'a Node> {
        if decl.inner.iter().any(|c| c.kind == Kind::CompoundStmt) {
            return Some(decl);
        }
        decl.mangled_name
            .as_ref()
            .and_then(|m| self.definitions.get(m).copied())
    }

    fn run(&mut self) {
        // Function pointers are numbered before anything takes one.
        self.number_function_pointers();
        for (_, def) in self.fn_ptrs.clone() {
            if let Err(e) = self.request(def, false) {
                self.errors.push(e);
            }
        }
        // Globals first, in declaration order, so their order is the source's.
        self.declare_globals();
        for k in self.tu.kernels() {
            if let Err(e) = self.request(k, true) {
                self.errors.push(e);
            }
        }
        while let Some(def) = self.queue.pop() {
            func::lower_function(self, def);
        }
        self.check_recursion();
        // Functions in definition order: kernels were requested first.
    }

    /// Requests the lowering of function definition `def`; returns its
    /// signature (creating a placeholder IR function on first request).
    pub fn request(&mut self, def: &'a Node, kernel: bool) -> Result<Rc<Sig>, Diagnostic> {
        if let Some(s) = self.sigs.get(&def.id) {
            return Ok(s.clone());
        }
        let sig = func::signature(self, def, kernel)?;
        let sig = Rc::new(sig);
        self.sigs.insert(def.id, sig.clone());
        self.queue.push(def);
        Ok(sig)
    }

    /// Declares a device function that another translation unit defines
    /// (separate compilation): an import, never lowered here.
    pub fn request_import(&mut self, decl: &'a Node) -> Result<Rc<Sig>, Diagnostic> {
        if let Some(s) = self.sigs.get(&decl.id) {
            return Ok(s.clone());
        }
        let sig = Rc::new(func::signature(self, decl, false)?);
        self.module.functions[sig.id].linkage = Linkage::Import;
        self.sigs.insert(decl.id, sig.clone());
        Ok(sig)
    }

    /// Separate compilation: lowers every device function the main file
    /// defines with external linkage, and marks the lowered functions and
    /// variables with external names as such, so other units can use them.
    fn export_device_functions(&mut self, main_file: &str) {
        fn collect<'n>(nodes: &'n [Node], main: &str, out: &mut Vec<&'n Node>) {
            for n in nodes {
                match &n.kind {
                    Kind::NamespaceDecl | Kind::LinkageSpecDecl => collect(&n.inner, main, out),
                    _ if n.kind.is_function()
                        && n.has_attr(&Kind::CUDADeviceAttr)
                        && !n.is_kernel()
                        && n.inner.iter().any(|c| c.kind == Kind::CompoundStmt)
                        && n.user_loc().is_some_and(|l| l.file() == main) =>
                    {
                        out.push(n)
                    }
                    _ => {}
                }
            }
        }
        let mut defs = Vec::new();
        collect(&self.tu.decls, main_file, &mut defs);
        for d in defs {
            let internal = d.storage_class.as_deref() == Some("static")
                || d.mangled_name.as_deref().is_some_and(is_internal_name);
            if internal {
                continue;
            }
            if let Err(e) = self.request(d, false) {
                self.errors.push(e);
            }
        }
        while let Some(def) = self.queue.pop() {
            func::lower_function(self, def);
        }
        self.check_recursion();
        let ids: Vec<FuncId> = self.module.functions.handles().collect();
        for id in ids {
            let f = &mut self.module.functions[id];
            if f.kind == FunctionKind::Device
                && f.linkage == Linkage::Internal
                && !is_internal_name(&f.name)
            {
                f.linkage = Linkage::External;
            }
        }
    }

    /// Adds an empty placeholder function (filled in when lowered).
    pub fn placeholder(&mut self, name: &str, kind: FunctionKind) -> FuncId {
        self.module
            .add_function(Function::new(name, kind, &[], &[]))
    }

    fn check_recursion(&mut self) {
        let n = self.module.functions.len();
        let mut adj: Vec<Vec<(usize, DiagLoc)>> = vec![Vec::new(); n];
        for (a, b, _, at) in &self.calls {
            adj[a.index()].push((b.index(), at.clone()));
        }
        // Colour-based DFS, iterative.
        let mut colour = vec![0u8; n];
        let mut reported = HashSet::new();
        for start in 0..n {
            if colour[start] != 0 {
                continue;
            }
            let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
            colour[start] = 1;
            while let Some(&mut (v, ref mut k)) = stack.last_mut() {
                if *k < adj[v].len() {
                    let (w, at) = adj[v][*k].clone();
                    *k += 1;
                    if colour[w] == 1 {
                        if reported.insert(at.clone()) {
                            let name = self.module.functions[cucc_ir::Handle::new(w)].name.clone();
                            self.errors.push(Diagnostic::new(
                                at,
                                format!("recursion is not supported in device code (call cycle through '{name}')"),
                            ));
                        }
                    } else if colour[w] == 0 {
                        colour[w] = 1;
                        stack.push((w, 0));
                    }
                } else {
                    colour[v] = 2;
                    stack.pop();
                }
            }
        }
    }
}
