//! IR text of the small element-wise kernels the device back-ends' unit
//! tests compile and run.

/// A one-dimensional element-wise kernel `name(params)` in file `file`:
/// thread `i = block_id · block_dim + thread_id` runs `body` (which reads
/// `%i64`, the index widened to `i64`) when `i < %n`.
fn elementwise(file: &str, name: &str, params: &str, body: &str) -> String {
    format!(
        r#"file "{file}"

kernel @{name}({params}, %n: i32) loc(0:1:1) {{
  %tx = thread_id x : i32
  %bx = block_id x : i32
  %dx = block_dim x : i32
  %0 = mul %bx, %dx : i32
  %i = add %0, %tx : i32
  %in = cmp slt %i, %n : i1
  if %in {{
    %i64 = sext %i : i64
{body}    yield
  }} else {{
    yield
  }} loc(0:3:3)
  return
}}
"#
    )
}

/// `scale(x, y, a, n)`: `y[i] = a·x[i] + y[i]` in `f64`.
pub(crate) fn scale() -> String {
    elementwise(
        "scale.cu",
        "scale",
        "%x: ptr<global>, %y: ptr<global>, %a: f64",
        "    %xp = ptr.index f64 %x, %i64 : ptr<global>
    %xv = load %xp : f64
    %m = fmul %xv, %a : f64
    %yp = ptr.index f64 %y, %i64 : ptr<global>
    %yv = load %yp : f64
    %s = fadd %m, %yv : f64
    store %yp, %s
",
    )
}

/// `vadd(a, b, c, n)`: `c[i] = a[i] + b[i]` in `f64`.
pub(crate) fn vadd() -> String {
    elementwise(
        "vadd.cu",
        "vadd",
        "%a: ptr<global>, %b: ptr<global>, %c: ptr<global>",
        "    %ap = ptr.index f64 %a, %i64 : ptr<global>
    %av = load %ap : f64
    %bp = ptr.index f64 %b, %i64 : ptr<global>
    %bv = load %bp : f64
    %s = fadd %av, %bv : f64
    %cp = ptr.index f64 %c, %i64 : ptr<global>
    store %cp, %s
",
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_kernels_parse() {
        for text in [super::scale(), super::vadd()] {
            if let Err(e) = cucc_ir::parse_module(&text) {
                panic!("{e}\n{text}");
            }
        }
    }
}
