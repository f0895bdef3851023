//! Streaming comparison of two outputs: where they first differ, by line,
//! without holding either in memory.

use std::io::{BufRead, BufReader, Read};

/// Where two streams first differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Difference {
    /// Byte offset of the first differing byte (or of the end of the shorter stream).
    pub offset: u64,
    /// 1-based line of that byte.
    pub line: u64,
    /// Byte offset where that line starts.
    pub line_start: u64,
}

/// `None` when `a` and `b` hold the same bytes.
pub fn first_difference(a: impl Read, b: impl Read) -> std::io::Result<Option<Difference>> {
    let mut a = BufReader::with_capacity(1 << 16, a);
    let mut b = BufReader::with_capacity(1 << 16, b);
    let (mut offset, mut line, mut line_start) = (0u64, 1u64, 0u64);
    loop {
        let (x, y) = (a.fill_buf()?, b.fill_buf()?);
        if x.is_empty() && y.is_empty() {
            return Ok(None);
        }
        let n = x.len().min(y.len());
        let same = x[..n]
            .iter()
            .zip(&y[..n])
            .position(|(p, q)| p != q)
            .unwrap_or(n);
        for (i, c) in x[..same].iter().enumerate() {
            if *c == b'\n' {
                line += 1;
                line_start = offset + i as u64 + 1;
            }
        }
        offset += same as u64;
        if same < n || n == 0 {
            return Ok(Some(Difference {
                offset,
                line,
                line_start,
            }));
        }
        a.consume(n);
        b.consume(n);
    }
}

/// The line that starts at byte `start` (without its newline), at most 800
/// bytes of it; `None` when the stream is shorter than `start`.
pub fn line_at(r: impl Read, start: u64) -> Option<Vec<u8>> {
    let mut r = BufReader::new(r);
    let skipped = std::io::copy(&mut (&mut r).take(start), &mut std::io::sink()).ok()?;
    if skipped < start {
        return None;
    }
    let mut line = Vec::new();
    (&mut r).take(800).read_until(b'\n', &mut line).ok()?;
    if line.last() == Some(&b'\n') {
        line.pop();
    }
    Some(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diff(a: &str, b: &str) -> Option<(u64, u64)> {
        first_difference(a.as_bytes(), b.as_bytes())
            .unwrap()
            .map(|d| (d.line, d.line_start))
    }

    #[test]
    fn finds_the_first_differing_line() {
        assert_eq!(diff("a\nb\n", "a\nb\n"), None);
        assert_eq!(diff("", ""), None);
        assert_eq!(diff("a\nb\nc\n", "a\nB\nc\n"), Some((2, 2)));
        assert_eq!(diff("a\nb\n", "a\n"), Some((2, 2)));
        assert_eq!(diff("x", ""), Some((1, 0)));
        assert_eq!(line_at(&b"a\nbc\nd"[..], 2), Some(b"bc".to_vec()));
        assert_eq!(line_at(&b"a\n"[..], 2), Some(Vec::new()));
        assert_eq!(line_at(&b"a"[..], 5), None);
    }

    /// A difference far past any in-memory limit is still found.
    #[test]
    fn differences_beyond_megabytes_are_found() {
        let mut a = vec![b'x'; 20 << 20];
        a.extend_from_slice(b"\nlast\n");
        let mut b = a.clone();
        let n = b.len();
        b[n - 2] = b'T';
        let d = first_difference(&a[..], &b[..]).unwrap().unwrap();
        assert_eq!(d.line, 2);
        assert_eq!(line_at(&b[..], d.line_start), Some(b"lasT".to_vec()));
    }
}
