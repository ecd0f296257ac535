//! Kernel launches written with spaces inside the chevrons.
//!
//! Old nvcc accepted `kernel << < grid, block >> > (args)` (Rodinia's
//! particlefilter writes it); clang only knows the `<<<` and `>>>` tokens.
//! [`rewrite`] joins such chevrons before clang sees the file, and changes
//! nothing else: outside comments, string and character literals only, an
//! opening `< < <` (three `<` apart only by whitespace) after a name, `>`,
//! `)` or `]` but not after `operator` (`operator<< <T>` names a template),
//! and only the closing `> > >` of such a launch, at bracket depth zero and
//! followed by `(`. An opening that is never closed that way is left alone.
//! No valid C++ contains either spaced form elsewhere: nothing may start an
//! expression with `<`, and `A<B<C<int>> >` is only touched after an opening.
//! Whitespace removed between chevrons is put back after them, so lines and
//! most columns are unchanged.

/// A token of the scan: what the launch matching needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok {
    /// An identifier or number; `true` for the word `operator`.
    Word(bool),
    /// One punctuation character.
    Punct(u8),
    /// A comment, string or character literal: separates chevrons.
    Opaque,
}

/// Splits `src` into tokens with their byte ranges.
fn scan(src: &str) -> Vec<(Tok, usize, usize)> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        let st = i;
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if line_start && c == b'#' {
            // `#include <a'b.h>`: header names are not scanned.
            let rest = &src[i + 1..];
            let directive = rest.trim_start();
            if directive.starts_with("include") || directive.starts_with("import") {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                out.push((Tok::Opaque, st, i));
                continue;
            }
        }
        line_start = false;
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                // A line comment continues after a backslash-newline.
                if b[i] == b'\\' && b.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                i += 1;
            }
            out.push((Tok::Opaque, st, i));
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                i += 1;
            }
            i = (i + 2).min(b.len());
            out.push((Tok::Opaque, st, i));
        } else if c == b'"' || c == b'\'' {
            i = quoted(b, i);
            out.push((Tok::Opaque, st, i));
        } else if c.is_ascii_alphanumeric() || c == b'_' {
            let number = c.is_ascii_digit();
            while i < b.len() {
                let d = b[i];
                let sep =
                    number && d == b'\'' && b.get(i + 1).is_some_and(|n| n.is_ascii_alphanumeric());
                if d.is_ascii_alphanumeric() || d == b'_' || sep || (number && d == b'.') {
                    i += 1;
                } else {
                    break;
                }
            }
            let word = &src[st..i];
            if !number && b.get(i) == Some(&b'"') && word.ends_with('R') {
                // A raw string: R"delim( ... )delim".
                let open = i + 1;
                let delim_end = src[open..].find('(').map(|p| open + p);
                match delim_end {
                    Some(p) => {
                        let close = format!("){}\"", &src[open..p]);
                        i = src[p..]
                            .find(&close)
                            .map_or(b.len(), |q| p + q + close.len());
                    }
                    None => i = b.len(),
                }
                out.push((Tok::Opaque, st, i));
            } else if !number && matches!(b.get(i), Some(b'"') | Some(b'\'')) {
                // An encoding prefix: L"..", u8'..'.
                i = quoted(b, i);
                out.push((Tok::Opaque, st, i));
            } else {
                out.push((Tok::Word(word == "operator"), st, i));
            }
        } else {
            i += 1;
            out.push((Tok::Punct(c), st, i));
        }
    }
    out
}

/// The end of the string or character literal starting at `i`.
fn quoted(b: &[u8], mut i: usize) -> usize {
    let q = b[i];
    i += 1;
    while i < b.len() && b[i] != q && b[i] != b'\n' {
        if b[i] == b'\\' {
            i += 1;
        }
        i += 1;
    }
    (i + 1).min(b.len())
}

/// Whether only whitespace lies between tokens `k` and `k + 1`.
fn adjacent(toks: &[(Tok, usize, usize)], k: usize) -> bool {
    let (_, _, end) = toks[k];
    let (_, start, _) = toks[k + 1];
    end <= start
}

/// Whether tokens `k..k + 3` are three `c`, apart only by whitespace.
fn triple(toks: &[(Tok, usize, usize)], k: usize, c: u8) -> bool {
    k + 2 < toks.len()
        && (0..3).all(|d| toks[k + d].0 == Tok::Punct(c))
        && adjacent(toks, k)
        && adjacent(toks, k + 1)
}

/// The replacement of a chevron group `st..en`: the three characters, then
/// the whitespace that was between them.
fn joined(src: &str, st: usize, en: usize, c: char) -> String {
    let mut s: String = [c; 3].iter().collect();
    s.extend(src[st..en].chars().filter(|ch| ch.is_whitespace()));
    s
}

/// `src` with spaced launch chevrons joined, or `None` when it has none.
pub fn rewrite(src: &str) -> Option<String> {
    let toks = scan(src);
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    let mut k = 1;
    while k + 2 < toks.len() {
        let launch = triple(&toks, k, b'<')
            && matches!(
                toks[k - 1].0,
                Tok::Word(false) | Tok::Punct(b'>') | Tok::Punct(b')') | Tok::Punct(b']')
            )
            && !matches!(toks.get(k + 3).map(|t| t.0), Some(Tok::Punct(b'<' | b'=')));
        if !launch {
            k += 1;
            continue;
        }
        let Some(close) = closing(&toks, k + 3) else {
            k += 1;
            continue;
        };
        for at in [k, close] {
            let (st, en) = (toks[at].1, toks[at + 2].2);
            if en - st != 3 {
                let c = if at == k { '<' } else { '>' };
                edits.push((st, en, joined(src, st, en, c)));
            }
        }
        k = close + 3;
    }
    if edits.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(src.len());
    let mut at = 0;
    for (st, en, text) in edits {
        out.push_str(&src[at..st]);
        out.push_str(&text);
        at = en;
    }
    out.push_str(&src[at..]);
    Some(out)
}

/// The first token of the `> > >` closing a launch whose configuration
/// starts at token `from`: at bracket depth zero, followed by `(`.
fn closing(toks: &[(Tok, usize, usize)], from: usize) -> Option<usize> {
    let mut depth = 0i32;
    let mut k = from;
    while k < toks.len() {
        match toks[k].0 {
            Tok::Punct(b'(' | b'[') => depth += 1,
            Tok::Punct(b')' | b']') => {
                depth -= 1;
                if depth < 0 {
                    return None;
                }
            }
            Tok::Punct(b';' | b'{' | b'}') => return None,
            Tok::Punct(b'>') if depth == 0 && triple(toks, k, b'>') => {
                return (toks.get(k + 3)?.0 == Tok::Punct(b'(')).then_some(k);
            }
            _ => {}
        }
        k += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::rewrite;

    #[test]
    fn joins_spaced_launches() {
        assert_eq!(
            rewrite("k << < g, b >> > (x, y);").as_deref(),
            Some("k <<<  g, b >>>  (x, y);")
        );
        assert_eq!(
            rewrite("k< < <g, b> > >(x);").as_deref(),
            Some("k<<<  g, b>>>  (x);")
        );
        // Only the closing is spaced; a template kernel; a newline kept.
        assert_eq!(
            rewrite("k<T><<<dim3(n, 1), m>> >(p);").as_deref(),
            Some("k<T><<<dim3(n, 1), m>>> (p);")
        );
        assert_eq!(
            rewrite("k <<\n< g, b >>\n> (x);").as_deref(),
            Some("k <<<\n g, b >>>\n (x);")
        );
        assert_eq!(
            rewrite("a[0] << < f(a > b), s[1] >> > (x); q << < 1, 2 >> > ();").as_deref(),
            Some("a[0] <<<  f(a > b), s[1] >>>  (x); q <<<  1, 2 >>>  ();")
        );
    }

    #[test]
    fn leaves_everything_else_alone() {
        for src in [
            "k<<<g, b>>>(x);",
            "A<B<C<int>> > v; a<b<c> > w; x = y >> > z;",
            "std::vector<std::vector<int> > v; int s = a << b >> c;",
            "friend std::ostream &operator<< <>(std::ostream &, const X<T> &);",
            "template ostream &operator<< <char>(ostream &, X);",
            "const char *s = \"k << < g, b >> > (x)\"; // k << < g >> > (x)",
            "/* k << < g, b >> > (x); */ char c = '<'; auto r = R\"(k << < 1 >> > ())\";",
            "#include <a'b.h>\nint n = 1'000 << 2;",
            "k << < g, b >> > ;",
            "x <<= <g>;",
        ] {
            assert_eq!(rewrite(src), None, "{src}");
        }
    }
}
