//! `--preprocess`: runs the C preprocessor on the input and turns its output
//! into the [`SourceFile`] that is translated (see [`crate::source::linemap`]
//! for what is kept and how lines map back).
//!
//! The command is `$P2C_CPP` (split at whitespace) or else the first of
//! `cc`, `gcc`, `clang` that can be started (a machine with gcc but no `cc`
//! link is common in containers), run as
//! `CMD -E -C -dD -x c FLAGS... INPUT` in the current directory: `-C` keeps
//! the user's comments, `-dD` keeps the `#define`s (so that system headers,
//! which stay `#include` lines, see the same feature macros when nvcc
//! includes them again), `-x c` reads any file name (and standard input) as C.
//! A file input is passed by name, so quoted `#include`s resolve from its
//! directory; standard input is piped.

use super::io::io_message;
use super::Input;
use crate::source::linemap::unmark;
use crate::source::SourceFile;
use std::collections::HashMap;
use std::ffi::OsString;
use std::io::{Read, Write};
use std::process::{Command, Stdio};

/// Why there is no preprocessed input.
#[derive(Debug)]
pub enum CppError {
    /// The preprocessor cannot be started (missing, not executable).
    CannotRun(String),
    /// It ran and failed: its own messages were written to stderr.
    Failed(String),
}

/// The preprocessor commands to try, in order, each with its leading
/// arguments: `$P2C_CPP` alone when it is set.
fn commands() -> Vec<(String, Vec<String>)> {
    let spec = std::env::var("P2C_CPP").unwrap_or_default();
    let mut words = spec.split_whitespace().map(str::to_string);
    match words.next() {
        Some(cmd) => vec![(cmd, words.collect())],
        None => ["cc", "gcc", "clang"]
            .iter()
            .map(|c| (c.to_string(), Vec::new()))
            .collect(),
    }
}

/// A file the preprocessor read besides the input (from its line markers).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub path: String,
    /// Flag 3 of the marker: a system header.
    pub system: bool,
}

/// Runs the preprocessor on `file` (already read from `input`) with `flags`
/// (`-IDIR`, `-DNAME=VAL`, `-UNAME`, in order).
pub fn preprocess(
    input: &Input,
    file: &SourceFile,
    flags: &[OsString],
) -> Result<SourceFile, CppError> {
    preprocess_with_headers(input, file, flags).map(|(f, _)| f)
}

/// The files named by the line markers of `out` (`# 12 "dir/a.h" 1 3`), in
/// first-seen order, without the input itself and `<built-in>`-style names.
fn headers_read(out: &str, main: &str) -> Vec<Header> {
    let mut seen: Vec<Header> = Vec::new();
    for line in out.lines() {
        let Some(rest) = line.strip_prefix("# ") else {
            continue;
        };
        let mut it = rest.splitn(2, ' ');
        let (Some(num), Some(tail)) = (it.next(), it.next()) else {
            continue;
        };
        if !num.bytes().all(|b| b.is_ascii_digit()) || !tail.starts_with('"') {
            continue;
        }
        let Some(end) = tail[1..].find('"') else {
            continue;
        };
        let name = &tail[1..1 + end];
        if name == main || name.starts_with('<') || name.contains('\\') {
            continue;
        }
        let system = tail[end + 2..].split_whitespace().any(|f| f == "3");
        if let Some(h) = seen.iter_mut().find(|h| h.path == name) {
            h.system &= system;
        } else {
            seen.push(Header {
                path: name.to_string(),
                system,
            });
        }
    }
    seen
}

/// [`preprocess`], and every file the preprocessor read (for `-MD`).
pub fn preprocess_with_headers(
    input: &Input,
    file: &SourceFile,
    flags: &[OsString],
) -> Result<(SourceFile, Vec<Header>), CppError> {
    let candidates = commands();
    let mut started = None;
    let mut tried = Vec::new();
    for (cmd, lead) in &candidates {
        let mut c = Command::new(cmd);
        c.args(lead)
            .args(["-E", "-C", "-dD", "-x", "c"])
            .args(flags);
        match input {
            Input::Path(p) => {
                c.arg(p);
            }
            Input::Std => {
                c.arg("-");
            }
        }
        c.stdin(if matches!(input, Input::Std) {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
        match c.spawn() {
            Ok(child) => {
                started = Some((child, cmd.clone()));
                break;
            }
            Err(e) => tried.push(format!("`{cmd}`: {}", io_message(&e))),
        }
    }
    let Some((mut child, cmd)) = started else {
        return Err(CppError::CannotRun(format!(
            "--preprocess needs a C preprocessor, but none can be run ({}); set P2C_CPP to the command of one, for example P2C_CPP=gcc",
            tried.join("; ")
        )));
    };
    // Feed standard input from a thread so a large output cannot block it.
    let feeder = child.stdin.take().map(|mut stdin| {
        let text = file.text.clone();
        std::thread::spawn(move || {
            let _ = stdin.write_all(text.as_bytes());
        })
    });
    let mut out = Vec::new();
    let read = child
        .stdout
        .take()
        .map(|mut s| s.read_to_end(&mut out))
        .unwrap_or(Ok(0));
    let status = child.wait();
    if let Some(f) = feeder {
        let _ = f.join();
    }
    let status = status.map_err(|e| CppError::CannotRun(format!("`{cmd}`: {}", io_message(&e))))?;
    if let Err(e) = read {
        return Err(CppError::CannotRun(format!(
            "cannot read the output of `{cmd}`: {}",
            io_message(&e)
        )));
    }
    if !status.success() {
        return Err(CppError::Failed(format!(
            "the C preprocessor (`{cmd}`) failed on `{}` ({status}); nothing was translated",
            file.name
        )));
    }
    let Ok(out) = String::from_utf8(out) else {
        return Err(CppError::Failed(format!(
            "the output of the C preprocessor (`{cmd}`) on `{}` is not valid UTF-8",
            file.name
        )));
    };
    // The preprocessor names the input as it was given: the path, or `<stdin>`.
    let main = match input {
        Input::Path(p) => p.display().to_string(),
        Input::Std => "<stdin>".to_string(),
    };
    let headers = headers_read(&out, &main);
    let mut cache: HashMap<String, Option<Vec<String>>> = HashMap::new();
    let u = unmark(&out, &main, |name, line| {
        let lines = cache.entry(name.to_string()).or_insert_with(|| {
            let text = if name == main {
                Some(file.text.clone())
            } else {
                std::fs::read_to_string(name).ok()
            };
            text.map(|t| t.lines().map(str::to_string).collect())
        });
        lines.as_ref()?.get(line.checked_sub(1)?).cloned()
    });
    let mut map = u.map;
    for name in map.files().to_vec() {
        let text = if name == main {
            Some(file.text.clone())
        } else if name.starts_with('<') {
            None
        } else {
            std::fs::read_to_string(&name).ok()
        };
        if let Some(t) = text {
            map.set_original(&name, t);
        }
    }
    Ok((
        SourceFile::with_origins(file.name.clone(), u.text, map),
        headers,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_from_line_markers() {
        let out = "# 0 \"m.c\"\n# 0 \"<built-in>\"\n# 1 \"inc/a.h\" 1\n# 1 \"/usr/include/stdio.h\" 1 3 4\n# 2 \"inc/a.h\" 2\n# 3 \"m.c\" 2\n";
        let h = headers_read(out, "m.c");
        assert_eq!(
            h,
            [
                Header {
                    path: "inc/a.h".into(),
                    system: false
                },
                Header {
                    path: "/usr/include/stdio.h".into(),
                    system: true
                },
            ]
        );
    }
}
