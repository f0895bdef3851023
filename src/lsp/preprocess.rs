//! Diagnostics with `preprocess` set (`--preprocess`): the document's
//! text goes through the C preprocessor (`$P2C_CPP`, else `cc`) with the
//! configured flags, is translated, and the diagnostics located in the
//! document come back onto its text (line and column of the
//! preprocessed line; a label in a header is dropped).

use crate::diag::{codes, Diagnostic};
use crate::source::{linemap::unmark, SourceFile, Span};
use crate::Options;
use std::io::Write;
use std::process::{Command, Stdio};

const MAIN: &str = "<stdin>";

/// The diagnostics of the preprocessed translation of `text`, on `text`.
pub fn diagnostics(name: &str, text: &str, flags: &[String], opts: &Options) -> Vec<Diagnostic> {
    let pre = match run(name, text, flags) {
        Ok(p) => p,
        Err(msg) => return vec![Diagnostic::new(codes::PREPROCESSOR, Span::new(0, 0), msg)],
    };
    let opts = Options {
        emit: crate::Emit::Cuda,
        ..opts.clone()
    };
    let doc = SourceFile::new(name, text);
    crate::translate(&pre, &opts)
        .diagnostics
        .into_iter()
        .filter_map(|mut d| {
            d.labels.retain_mut(|l| match back(&pre, &doc, l.span) {
                Some(s) => {
                    l.span = s;
                    true
                }
                None => false,
            });
            d.labels.iter().any(|l| l.primary).then_some(d)
        })
        .collect()
}

/// `s` of the preprocessed text on the document, if it came from it.
fn back(pre: &SourceFile, doc: &SourceFile, s: Span) -> Option<Span> {
    let at = |o: usize| -> Option<usize> {
        let (file, line) = pre.origin(o);
        if file != MAIN {
            return None;
        }
        let (_, col) = pre.line_col(o.min(pre.text.len()));
        let start = doc.line_start(line);
        let end = doc.line_start(line + 1).min(doc.text.len());
        let mut p = (start + col - 1).min(end);
        while !doc.text.is_char_boundary(p) {
            p -= 1;
        }
        Some(p)
    };
    let start = at(s.start)?;
    let end = at(s.end).filter(|e| *e >= start).unwrap_or(start);
    Some(Span::new(start, end))
}

fn run(name: &str, text: &str, flags: &[String]) -> Result<SourceFile, String> {
    let spec = std::env::var("P2C_CPP").unwrap_or_default();
    let mut words = spec.split_whitespace();
    let cmd = words.next().unwrap_or("cc").to_string();
    let mut c = Command::new(&cmd);
    c.args(words).args(["-E", "-C", "-dD", "-x", "c"]);
    if let Some(dir) = std::path::Path::new(name).parent() {
        c.arg("-iquote").arg(dir);
    }
    c.args(flags)
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().map_err(|e| format!("cannot run `{cmd}`: {e}"))?;
    let input = text.to_string();
    let mut stdin = child.stdin.take();
    let feeder = std::thread::spawn(move || {
        if let Some(s) = stdin.as_mut() {
            let _ = s.write_all(input.as_bytes());
        }
    });
    let out = child
        .wait_with_output()
        .map_err(|e| format!("`{cmd}`: {e}"))?;
    let _ = feeder.join();
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!(
            "the C preprocessor (`{cmd}`) failed ({}): {}",
            out.status,
            err.trim()
        ));
    }
    let out = String::from_utf8(out.stdout).map_err(|_| "preprocessor output is not UTF-8")?;
    let lines: Vec<&str> = text.lines().collect();
    let u = unmark(&out, MAIN, |file, line| {
        if file == MAIN {
            lines.get(line.checked_sub(1)?).map(|l| l.to_string())
        } else {
            std::fs::read_to_string(file)
                .ok()?
                .lines()
                .nth(line.checked_sub(1)?)
                .map(str::to_string)
        }
    });
    Ok(SourceFile::with_origins(name, u.text, u.map))
}
