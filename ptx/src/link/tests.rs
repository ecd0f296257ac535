use super::*;

/// A kernel calling a device function and bumping a counter, both of
/// another unit, and printing once (its `$str` clashes with the other's).
const MAIN: &str = r#"
.version 9.5
.target sm_80
.address_size 64

.extern .func  (.param .b32 func_retval0) _Z4stepf
(
	.param .b32 _Z4stepf_param_0
)
;
.extern .global .align 4 .u32 counter;
.extern .func  (.param .b32 func_retval0) vprintf
(
	.param .b64 vprintf_param_0,
	.param .b64 vprintf_param_1
)
;
.global .align 1 .b8 $str[4] = {104, 105, 10, 0};

.func  (.param .b32 func_retval0) _ZL6helperf(
	.param .b32 _ZL6helperf_param_0
)
{
	.reg .f32 	%f<3>;
	ld.param.f32 	%f1, [_ZL6helperf_param_0];
	add.f32 	%f2, %f1, %f1;
	st.param.f32 	[func_retval0+0], %f2;
	ret;
}

.visible .entry _Z3runPf(
	.param .u64 _Z3runPf_param_0
)
{
	.reg .f32 	%f<4>;
	.reg .b32 	%r<3>;
	.reg .b64 	%rd<4>;

	ld.param.u64 	%rd1, [_Z3runPf_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	ld.global.f32 	%f1, [%rd2];
	{ // callseq 0, 0
	.param .b32 param0;
	st.param.f32 	[param0+0], %f1;
	.param .b32 retval0;
	call.uni (retval0), _Z4stepf, (param0);
	ld.param.f32 	%f2, [retval0+0];
	} // callseq 0
	{ // callseq 1, 0
	.param .b32 param0;
	st.param.f32 	[param0+0], %f2;
	.param .b32 retval0;
	call.uni (retval0), _ZL6helperf, (param0);
	ld.param.f32 	%f3, [retval0+0];
	} // callseq 1
	st.global.f32 	[%rd2], %f3;
	mov.u64 	%rd3, counter;
	atom.global.add.u32 	%r1, [%rd3], 1;
	ret;
}
"#;

/// Defines the function and the counter; has its own `$str` and helper.
const LIB: &str = r#"
.version 9.4
.target sm_80
.address_size 64

.visible .global .align 4 .u32 counter;
.global .align 1 .b8 $str[3] = {111, 107, 0};

.func  (.param .b32 func_retval0) _ZL6helperf(
	.param .b32 _ZL6helperf_param_0
)
{
	.reg .f32 	%f<3>;
	ld.param.f32 	%f1, [_ZL6helperf_param_0];
	mul.f32 	%f2, %f1, %f1;
	st.param.f32 	[func_retval0+0], %f2;
	ret;
}

.visible .func  (.param .b32 func_retval0) _Z4stepf(
	.param .b32 _Z4stepf_param_0
)
{
	.reg .f32 	%f<3>;
	ld.param.f32 	%f1, [_Z4stepf_param_0];
	{ // callseq 0, 0
	.param .b32 param0;
	st.param.f32 	[param0+0], %f1;
	.param .b32 retval0;
	call.uni (retval0), _ZL6helperf, (param0);
	ld.param.f32 	%f2, [retval0+0];
	} // callseq 0
	st.param.f32 	[func_retval0+0], %f2;
	ret;
}
"#;

fn units<'a>(list: &[(&'a str, &'a str)]) -> Vec<Unit<'a>> {
    list.iter().map(|&(name, ptx)| Unit { name, ptx }).collect()
}

#[test]
fn externs_resolve_to_another_units_definitions() {
    let linked = link(&units(&[("main", MAIN), ("lib", LIB)])).expect("links");
    // One definition of each symbol; the declarations are gone.
    assert_eq!(linked.matches(".global .align 4 .u32 counter").count(), 1);
    assert!(!linked.contains(".extern .global"), "{linked}");
    assert!(!linked.contains(".extern .func  (.param .b32 func_retval0) _Z4stepf"));
    // vprintf stays declared: the frontend implements it.
    assert!(linked.contains("vprintf"), "{linked}");
    // One header, with the highest version.
    assert_eq!(linked.matches(".version").count(), 1, "{linked}");
    assert!(linked.contains(".version 9.5"), "{linked}");
    let m = crate::lower_ptx(&linked, "linked.ptx").expect("the linked PTX lowers");
    assert!(m.function("_Z3runPf").is_some());
    assert!(m.function("_Z4stepf").is_some());
    assert!(m.global("counter").is_some());
}

#[test]
fn internal_names_of_two_units_are_kept_apart() {
    let linked = link(&units(&[("main", MAIN), ("lib", LIB)])).expect("links");
    for name in ["$str$u0", "$str$u1", "_ZL6helperf$u0", "_ZL6helperf$u1"] {
        assert!(linked.contains(name), "{name} missing:\n{linked}");
    }
    // Each unit calls its own helper: main's doubles, lib's squares.
    let main_part = &linked[..linked.find("---- lib").expect("lib part")];
    assert!(main_part.contains("call.uni (retval0), _ZL6helperf$u0"));
    let lib_part = &linked[linked.find("---- lib").expect("lib part")..];
    assert!(lib_part.contains("call.uni (retval0), _ZL6helperf$u1"));
    assert!(!linked.contains("_ZL6helperf_param_0$"), "{linked}");
    let m = crate::lower_ptx(&linked, "linked.ptx").expect("the linked PTX lowers");
    assert!(m.global("$str$u0").is_some() && m.global("$str$u1").is_some());
}

#[test]
fn an_undefined_extern_names_the_symbol_and_the_units() {
    let e = link(&units(&[("unit 1 of 2", MAIN), ("unit 2 of 2", "")])).expect_err("unresolved");
    assert!(e.0.contains("undefined device function `_Z4stepf`"), "{e}");
    assert!(e.0.contains("undefined variable `counter`"), "{e}");
    assert!(
        e.0.contains("(used by unit 1 of 2 (kernels _Z3runPf), defined by no unit)"),
        "{e}"
    );
    assert!(e.0.contains("unit 2 of 2 (no kernels)"), "{e}");
    // A single unit is checked too.
    let e = link(&units(&[("only", MAIN)])).expect_err("unresolved");
    assert!(e.0.contains("`_Z4stepf`"), "{e}");
}

#[test]
fn two_visible_definitions_are_an_error() {
    let e = link(&units(&[("a", LIB), ("b", LIB)])).expect_err("duplicate");
    assert!(
        e.0.contains("is defined by both a (no kernels) and b"),
        "{e}"
    );
}

#[test]
fn weak_definitions_keep_the_first() {
    let weak = LIB.replace(".visible .func", ".weak .func");
    let other = weak.replace(".visible .global .align 4 .u32 counter;", "");
    let linked = link(&units(&[("a", &weak), ("b", &other), ("main", MAIN)])).expect("links");
    assert_eq!(
        linked.matches("_Z4stepf(").count(),
        1,
        "one body of the weak function:\n{linked}"
    );
    assert!(linked.contains("another unit's definition is used"));
    crate::lower_ptx(&linked, "linked.ptx").expect("lowers");
    // A visible definition wins over a weak one, wherever it is.
    let linked = link(&units(&[("b", &other), ("main", MAIN), ("lib", LIB)])).expect("links");
    let lib_part = &linked[linked.find("---- lib").expect("lib part")..];
    assert!(lib_part.contains(".visible .func  (.param .b32 func_retval0) _Z4stepf("));
    crate::lower_ptx(&linked, "linked.ptx").expect("lowers");
}

#[test]
fn one_unit_is_left_as_it_is() {
    assert_eq!(link(&units(&[("lib", LIB)])).expect("links"), LIB);
}

#[test]
fn dynamic_shared_arrays_of_two_units_are_renamed_apart() {
    let k = |name: &str| {
        format!(
            ".version 9.5\n.target sm_80\n.address_size 64\n.extern .shared .align 4 .b8 smem[];\n.visible .entry {name}()\n{{\n\t.reg .b64 %rd<2>;\n\tmov.u64 %rd1, smem;\n\tret;\n}}\n"
        )
    };
    let (a, b) = (k("_Z1av"), k("_Z1bv"));
    let linked = link(&units(&[("a", &a), ("b", &b)])).expect("links");
    assert!(linked.contains("mov.u64 %rd1, smem$u0"), "{linked}");
    assert!(linked.contains("mov.u64 %rd1, smem$u1"), "{linked}");
    crate::lower_ptx(&linked, "linked.ptx").expect("lowers");
}

#[test]
fn file_numbers_are_shifted() {
    let with_file = |path: &str| {
        format!(".version 9.5\n.target sm_80\n.address_size 64\n.file 1 \"{path}\"\n.visible .func f{}()\n{{\n\t.loc 1 7 3, function_name $L__info_string0, inlined_at 1 2 1\n\tret;\n}}\n", path.len())
    };
    let (a, b) = (with_file("a.cu"), with_file("bb.cu"));
    let linked = link(&units(&[("a", &a), ("b", &b)])).expect("links");
    assert!(linked.contains(".file 1 \"a.cu\""), "{linked}");
    assert!(linked.contains(".file 2 \"bb.cu\""), "{linked}");
    assert!(
        linked.contains(".loc 2 7 3, function_name $L__info_string0, inlined_at 2 2 1"),
        "{linked}"
    );
    assert!(
        linked.contains(".loc 1 7 3, function_name $L__info_string0, inlined_at 1 2 1"),
        "{linked}"
    );
}

#[test]
fn a_kernel_and_a_variable_of_one_name_are_an_error() {
    let var = ".visible .global .align 4 .u32 _Z3runPf;\n";
    let e = link(&units(&[("main", MAIN), ("v", var), ("lib", LIB)])).expect_err("clash");
    assert!(e.0.contains("`_Z3runPf`"), "{e}");
}

#[test]
fn bad_text_is_an_error_naming_the_unit() {
    let e = link(&units(&[("u", "/* open")])).expect_err("lex error");
    assert!(e.0.starts_with("u:1:1:"), "{e}");
}

#[test]
fn template_kernels_of_two_units_are_kept_once() {
    let k = ".version 9.5\n.target sm_80\n.address_size 64\n.weak .entry _Z1kIiEvv()\n.maxntid 128, 1, 1\n{\n\tret;\n}\n";
    let linked = link(&units(&[("a", k), ("b", k)])).expect("links");
    assert_eq!(
        linked.matches(".weak .entry _Z1kIiEvv()").count(),
        1,
        "{linked}"
    );
    let m = crate::lower_ptx(&linked, "linked.ptx").expect("lowers");
    assert!(m.function("_Z1kIiEvv").is_some());
}

#[test]
fn internal_kernels_of_one_name_are_an_error() {
    let k = ".version 9.5\n.target sm_80\n.address_size 64\n.entry _ZL1kv()\n{\n\tret;\n}\n";
    let e = link(&units(&[("a", k), ("b", k)])).expect_err("ambiguous");
    assert!(e.0.contains("kernel `_ZL1kv` of a (kernels _ZL1kv)"), "{e}");
}

#[test]
fn debug_sections_and_pragmas_are_not_declarations() {
    let unit = |name: &str| {
        format!(".version 9.5\n.target sm_80\n.address_size 64\n.pragma \"nounroll\";\n.visible .func {name}()\n{{\n\tret;\n}}\n.section .debug_str\n{{\n$L__info_string0:\n.b8 95,0\n}}\n")
    };
    let (a, b) = (unit("fa"), unit("fb"));
    let linked = link(&units(&[("a", &a), ("b", &b)])).expect("links");
    // The label in each debug section is not a symbol to rename.
    assert_eq!(linked.matches("$L__info_string0:").count(), 2, "{linked}");
    crate::lower_ptx(&linked, "linked.ptx").expect("lowers");
}
