//! The lowered views: `pragma2cuda/lowered` (one region's kernel and host
//! code), `pragma2cuda/translated` (the whole translated file, a virtual
//! document `pragmacuda:<source URI>.cu`), and go-to from a pragma to its
//! kernel in that document.

use super::documents::Document;
use crate::Options;
use lsp_types::{Location, Position, Range, Url};
use serde_json::{json, Value};

/// `{ kernel, cuda, range, plan }` of the region at `pos`, or null.
pub fn lowered(doc: &mut Document, name: &str, opts: &Options, pos: Position) -> Value {
    let at = doc.lines.offset(&doc.text, pos);
    let details = doc.session(name, opts).details(at);
    let Some(d) = details else {
        return Value::Null;
    };
    let w = d.summary.whole;
    json!({
        "kernel": d.summary.kernel,
        "cuda": d.cuda,
        "plan": d.plan,
        "range": doc.lines.range(&doc.text, w.start, w.end),
    })
}

/// The virtual document of `source`'s translation: `file:///a/m.c` gives
/// `pragmacuda:///a/m.c.cu` (an editor takes it for a URL), another
/// scheme `pragmacuda:<source URI>.cu`.
pub fn virtual_uri(source: &Url) -> Option<Url> {
    let s = source.as_str();
    let v = match s.strip_prefix("file:") {
        Some(rest) => format!("{}:{rest}.cu", super::SCHEME),
        None => format!("{}:{s}.cu", super::SCHEME),
    };
    Url::parse(&v).ok()
}

/// The source URI of a virtual document (or `uri` itself).
pub fn source_uri(uri: &Url) -> Url {
    let s = uri.as_str();
    let inner = s
        .strip_prefix(&format!("{}:", super::SCHEME))
        .and_then(|r| r.strip_suffix(".cu"))
        .map(|r| match r.strip_prefix("//") {
            Some(_) => format!("file:{r}"),
            None => r.replace("%3A", ":").replace("%3a", ":"),
        });
    inner
        .and_then(|i| Url::parse(&i).ok())
        .unwrap_or_else(|| uri.clone())
}

/// `{ uri, text, kernels: [{ kernel, line }], errors }`: the translation of
/// the document (`text` null when errors stop it).
pub fn translated(doc: &mut Document, name: &str, opts: &Options, source: &Url) -> Value {
    let t = doc.translation(name, opts).clone();
    let errors = t.diagnostics.iter().filter(|d| d.is_error()).count();
    let kernels: Vec<Value> = match &t.output {
        Some(out) => doc
            .session(name, opts)
            .regions()
            .filter_map(|r| {
                kernel_at(out, &r.kernel).map(|(l, _)| json!({"kernel": r.kernel, "line": l}))
            })
            .collect(),
        None => Vec::new(),
    };
    json!({
        "uri": virtual_uri(source),
        "text": t.output,
        "kernels": kernels,
        "errors": errors,
    })
}

/// The line (0-based) and UTF-8 column of `__global__ void KERNEL(` in `out`.
fn kernel_at(out: &str, kernel: &str) -> Option<(usize, usize)> {
    let needle = format!("__global__ void {kernel}(");
    let at = out.find(&needle)? + needle.len() - kernel.len() - 1;
    let line_start = out[..at].rfind('\n').map_or(0, |i| i + 1);
    Some((out[..at].matches('\n').count(), at - line_start))
}

/// The kernel of the region at `pos` in the virtual document.
pub fn definition(
    doc: &mut Document,
    name: &str,
    opts: &Options,
    source: &Url,
    pos: Position,
) -> Option<Location> {
    let at = doc.lines.offset(&doc.text, pos);
    let kernel = doc.session(name, opts).details(at)?.summary.kernel;
    let out = doc.translation(name, opts).output.as_deref()?;
    let (line, col) = kernel_at(out, &kernel)?;
    let start = Position::new(line as u32, col as u32);
    let end = Position::new(line as u32, (col + kernel.len()) as u32);
    Some(Location::new(virtual_uri(source)?, Range::new(start, end)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn virtual_uri_round_trips() {
        let src = Url::parse("file:///tmp/a%20b/x.c").unwrap();
        let v = virtual_uri(&src).unwrap();
        assert_eq!(v.as_str(), "pragmacuda:///tmp/a%20b/x.c.cu");
        assert_eq!(source_uri(&v), src);
        let other = Url::parse("untitled:Untitled-1").unwrap();
        let v = virtual_uri(&other).unwrap();
        assert_eq!(v.as_str(), "pragmacuda:untitled:Untitled-1.cu");
        assert_eq!(source_uri(&v), other);
        let enc = Url::parse("pragmacuda:untitled%3AUntitled-1.cu").unwrap();
        assert_eq!(source_uri(&enc), other);
        assert_eq!(
            kernel_at("a\n static __global__ void k_L1(int)", "k_L1"),
            Some((1, 24))
        );
    }
}
