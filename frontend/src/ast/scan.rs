//! A fast structural scanner for JSON text that the reader skips.
//!
//! It finds where a JSON value ends without building it, and while doing so
//! reports the `file` and `line` keys it passes (except inside
//! `includedFrom`, whose `file` is not part of the elision state), so the
//! location elision state stays right across skipped nodes. It also notes
//! whether the text holds one of the CUDA attribute kinds that mark device
//! code.

use super::loc::LocState;

/// Why scanning failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScanError {
    /// Byte offset of the problem.
    pub offset: usize,
    /// What was wrong.
    pub message: &'static str,
}

/// Facts noticed while scanning.
#[derive(Debug, Default, Clone, Copy)]
pub struct ScanFacts {
    /// A string `"CUDAGlobalAttr"`, `"CUDADeviceAttr"`, `"CUDASharedAttr"`
    /// or `"CUDAConstantAttr"` occurs.
    pub device_attr: bool,
}

fn err(offset: usize, message: &'static str) -> ScanError {
    ScanError { offset, message }
}

/// Index of the first non-whitespace byte at or after `i`.
pub fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && matches!(b[i], b' ' | b'\n' | b'\r' | b'\t') {
        i += 1;
    }
    i
}

/// `i` is at an opening quote; returns the index just past the closing one.
pub fn string_end(b: &[u8], i: usize) -> Result<usize, ScanError> {
    let mut j = i + 1;
    loop {
        match memchr::memchr2(b'"', b'\\', &b[j.min(b.len())..]) {
            None => return Err(err(i, "unterminated string")),
            Some(k) => {
                let at = j + k;
                if b[at] == b'"' {
                    return Ok(at + 1);
                }
                j = at + 2;
            }
        }
    }
}

/// The contents of the string whose opening quote is at `i` (unescaped only
/// if it has no escapes; escaped strings go through serde_json).
fn string_value(text: &str, i: usize, end: usize) -> Result<std::borrow::Cow<'_, str>, ScanError> {
    let inner = &text[i + 1..end - 1];
    if inner.contains('\\') {
        serde_json::from_str::<String>(&text[i..end])
            .map(std::borrow::Cow::Owned)
            .map_err(|_| err(i, "bad string escape"))
    } else {
        Ok(std::borrow::Cow::Borrowed(inner))
    }
}

fn number_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && matches!(b[i], b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') {
        i += 1;
    }
    i
}

const DEVICE_ATTRS: [&[u8]; 4] = [
    b"CUDAGlobalAttr",
    b"CUDADeviceAttr",
    b"CUDASharedAttr",
    b"CUDAConstantAttr",
];

/// Scans the value starting at or after `start` (whitespace allowed) and
/// returns the index just past it. With `depth > 0` the scan starts inside
/// that many open objects/arrays and ends after closing them.
///
/// With `state`, `file`/`line` keys update it in document order.
pub fn skip_value(
    text: &str,
    start: usize,
    depth: usize,
    mut state: Option<&mut LocState>,
    facts: &mut ScanFacts,
) -> Result<usize, ScanError> {
    let b = text.as_bytes();
    let mut depth = depth;
    let mut i = skip_ws(b, start);
    loop {
        let Some(&c) = b.get(i) else {
            return Err(err(i, "unexpected end of JSON"));
        };
        match c {
            b'"' => {
                let end = string_end(b, i)?;
                let k = skip_ws(b, end);
                if b.get(k) == Some(&b':') {
                    let key = &b[i + 1..end - 1];
                    let v = skip_ws(b, k + 1);
                    match key {
                        b"file" if state.is_some() => {
                            if b.get(v) != Some(&b'"') {
                                return Err(err(v, "`file` is not a string"));
                            }
                            let vend = string_end(b, v)?;
                            let name = string_value(text, v, vend)?;
                            if let Some(st) = state.as_deref_mut() {
                                st.update(Some(&name), None);
                            }
                            i = vend;
                            continue;
                        }
                        b"line" if state.is_some() => {
                            let vend = number_end(b, v);
                            let line = text[v..vend]
                                .parse::<u32>()
                                .map_err(|_| err(v, "`line` is not a number"))?;
                            if let Some(st) = state.as_deref_mut() {
                                st.update(None, Some(line));
                            }
                            i = vend;
                            continue;
                        }
                        b"includedFrom" => {
                            i = skip_value(text, v, 0, None, facts)?;
                            continue;
                        }
                        _ => {
                            i = v;
                            continue;
                        }
                    }
                }
                let s = &b[i + 1..end - 1];
                if s.len() >= 14 && s.len() <= 16 && DEVICE_ATTRS.contains(&s) {
                    facts.device_attr = true;
                }
                if depth == 0 {
                    return Ok(end);
                }
                i = end;
            }
            b'{' | b'[' => {
                depth += 1;
                i += 1;
            }
            b'}' | b']' => {
                if depth == 0 {
                    return Err(err(i, "unbalanced bracket"));
                }
                depth -= 1;
                i += 1;
                if depth == 0 {
                    return Ok(i);
                }
            }
            _ => {
                if depth == 0 {
                    // A scalar at top level: a number, true, false or null.
                    let mut j = i;
                    while j < b.len()
                        && !matches!(b[j], b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t')
                    {
                        j += 1;
                    }
                    if j == i {
                        return Err(err(i, "expected a JSON value"));
                    }
                    return Ok(j);
                }
                i += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(text: &str) -> (usize, LocState, bool) {
        let mut st = LocState::default();
        let mut facts = ScanFacts::default();
        let end = skip_value(text, 0, 0, Some(&mut st), &mut facts).unwrap();
        (end, st, facts.device_attr)
    }

    #[test]
    fn finds_value_ends() {
        assert_eq!(scan(r#"{"a": [1, {"b": "}"}], "c": "x\"y"} tail"#).0, 35);
        assert_eq!(scan("  123, 4").0, 5);
        assert_eq!(scan(r#""s\\" x"#).0, 5);
    }

    #[test]
    fn tracks_file_and_line_but_not_included_from() {
        let text = r#"{"loc": {"offset": 1, "file": "a.cu", "line": 3, "col": 1, "tokLen": 1,
            "includedFrom": {"file": "main.cu"}},
            "range": {"begin": {"offset": 9, "line": 7, "col": 2, "tokLen": 1}},
            "value": "\"file\": \"fake.cu\"", "inner": [{"kind": "CUDAGlobalAttr"}]}"#;
        let (end, st, dev) = scan(text);
        assert_eq!(end, text.len());
        assert_eq!(&*st.file, "a.cu");
        assert_eq!(st.line, 7);
        assert!(dev);
    }

    #[test]
    fn reports_errors() {
        let mut facts = ScanFacts::default();
        assert!(skip_value(r#"{"a": "#, 0, 0, None, &mut facts).is_err());
        assert!(skip_value(r#""abc"#, 0, 0, None, &mut facts).is_err());
        assert!(skip_value("}", 0, 0, None, &mut facts).is_err());
    }
}
