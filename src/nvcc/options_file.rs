//! `--options-file FILE` (`-optf`): more of the command line, read from a
//! file (CMake passes include directories this way). Arguments are split at
//! whitespace; single and double quotes group, a backslash escapes the next
//! character.

/// The command line with every options file replaced by its arguments.
pub fn expand(args: &[String]) -> Result<Vec<String>, String> {
    let mut out = Vec::with_capacity(args.len());
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        let file = if a == "--options-file" || a == "-optf" {
            let f = args.get(i).ok_or_else(|| format!("`{a}` needs a value"))?;
            i += 1;
            f.clone()
        } else if let Some(f) = a
            .strip_prefix("--options-file=")
            .or_else(|| a.strip_prefix("-optf="))
        {
            f.to_string()
        } else {
            out.push(a.clone());
            continue;
        };
        let text = std::fs::read_to_string(&file)
            .map_err(|e| format!("cannot read options file {file}: {e}"))?;
        out.extend(split(&text).map_err(|e| format!("options file {file}: {e}"))?);
    }
    Ok(out)
}

/// Splits a command line as a POSIX shell would (without expansions).
fn split(text: &str) -> Result<Vec<String>, String> {
    let mut args = Vec::new();
    let mut cur = String::new();
    let mut in_arg = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                in_arg = true;
                loop {
                    match chars.next() {
                        Some(q) if q == c => break,
                        Some('\\') if c == '"' => match chars.next() {
                            Some(e) => cur.push(e),
                            None => return Err("unterminated quote".into()),
                        },
                        Some(x) => cur.push(x),
                        None => return Err("unterminated quote".into()),
                    }
                }
            }
            '\\' => match chars.next() {
                // A continued line joins, as in a shell.
                Some('\n') | None => {}
                Some(e) => {
                    in_arg = true;
                    cur.push(e);
                }
            },
            c if c.is_whitespace() => {
                if in_arg {
                    args.push(std::mem::take(&mut cur));
                    in_arg = false;
                }
            }
            c => {
                in_arg = true;
                cur.push(c);
            }
        }
    }
    if in_arg {
        args.push(cur);
    }
    Ok(args)
}

#[cfg(test)]
mod tests {
    use super::split;

    #[test]
    fn splits_like_a_shell() {
        assert_eq!(
            split("-I\"/a b/inc\"  -isystem='/c' \\\n -DX=\\\"y\\\"\n").expect("split"),
            vec!["-I/a b/inc", "-isystem=/c", "-DX=\"y\""]
        );
        assert!(split("'open").is_err());
        assert_eq!(split("").expect("split"), Vec::<String>::new());
    }
}
