//! `-MD`: the make rule that says what a translation depends on, written
//! as gcc writes it (`target: input header... `, continuation lines, `-MP`'s
//! phony rule per header). Without `--preprocess` the headers are the
//! quoted `#include "..."` files the input names, found beside the file
//! that includes them, and theirs in turn; with it, every file the
//! preprocessor read (`preprocess::Header`).

use std::path::{Path, PathBuf};

/// The quoted headers `input` (text `text`) includes, and theirs, each once,
/// in the order found; a header that does not exist is left out (the C
/// compiler reports it).
pub fn quoted_includes(input: &Path, text: &str) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = Vec::new();
    let mut todo: Vec<(PathBuf, String)> = vec![(input.to_path_buf(), text.to_string())];
    while let Some((from, text)) = todo.pop() {
        let dir = from.parent().unwrap_or(Path::new("")).to_path_buf();
        for name in include_names(&text) {
            let path = if dir.as_os_str().is_empty() {
                PathBuf::from(name)
            } else {
                dir.join(name)
            };
            if found.contains(&path) || path == input || !path.is_file() {
                continue;
            }
            found.push(path.clone());
            if let Ok(t) = std::fs::read_to_string(&path) {
                todo.push((path, t));
            }
        }
    }
    found
}

/// The names of the `#include "name"` lines of `text`.
fn include_names(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim_start().strip_prefix('#')?.trim_start();
            let l = l.strip_prefix("include")?.trim_start().strip_prefix('"')?;
            l.find('"').map(|e| &l[..e])
        })
        .collect()
}

/// A file name as make reads it: spaces and `#` escaped with a backslash,
/// `$` doubled.
pub fn escape(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        match c {
            ' ' | '#' => {
                out.push('\\');
                out.push(c);
            }
            '$' => out.push_str("$$"),
            _ => out.push(c),
        }
    }
    out
}

/// The rule: `targets: input headers...`, one name per continuation line;
/// with `phony`, an empty rule per header so make does not fail when one
/// is deleted.
pub fn make_rule(targets: &[String], input: &str, headers: &[String], phony: bool) -> String {
    let target: Vec<String> = targets.iter().map(|t| escape(t)).collect();
    let mut out = format!("{}: {}", target.join(" "), escape(input));
    for h in headers {
        out.push_str(" \\\n  ");
        out.push_str(&escape(h));
    }
    out.push('\n');
    if phony {
        for h in headers {
            out.push_str(&format!("\n{}:\n", escape(h)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_shape() {
        assert_eq!(
            make_rule(
                &["a b.cu".into()],
                "a.c",
                &["x.h".into(), "$d/y.h".into()],
                true
            ),
            "a\\ b.cu: a.c \\\n  x.h \\\n  $$d/y.h\n\nx.h:\n\n$$d/y.h:\n"
        );
        assert_eq!(make_rule(&["o".into()], "i.c", &[], false), "o: i.c\n");
    }

    #[test]
    fn include_lines() {
        let t = "#include \"a.h\"\n  #  include   \"sub/b.h\" // c\n#include <stdio.h>\nint x;\n";
        assert_eq!(include_names(t), ["a.h", "sub/b.h"]);
    }
}
