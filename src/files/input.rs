//! Reading the input: bounded in size, never blocked for ever on a FIFO that
//! no program writes, and refused when it is not text (invalid UTF-8, NUL).

use super::io::io_message;
use super::Input;
use crate::source::SourceFile;
use std::io::Read;
use std::path::Path;
use std::time::Duration;

/// The default limit on the input's size (`--max-input-size`): 256 MiB,
/// far beyond any C file, so `/dev/zero` or an endless pipe fails fast.
pub const DEFAULT_MAX_INPUT: u64 = 256 << 20;

/// How long a FIFO given as the input waits for a program to open it for
/// writing (opening a FIFO blocks until then).
pub const FIFO_WAIT: Duration = Duration::from_secs(10);

/// Reads the input as UTF-8 text of at most [`DEFAULT_MAX_INPUT`] bytes.
pub fn read_input(input: &Input) -> Result<SourceFile, (String, String)> {
    read_input_limited(input, DEFAULT_MAX_INPUT)
}

/// Reads the input as UTF-8 text of at most `limit` bytes (0: no limit). On
/// failure returns the display name and the message of an E0001 diagnostic.
pub fn read_input_limited(input: &Input, limit: u64) -> Result<SourceFile, (String, String)> {
    let (name, read) = match input {
        Input::Std => (
            "<stdin>".to_string(),
            read_bounded(std::io::stdin().lock(), limit),
        ),
        Input::Path(p) => (
            p.display().to_string(),
            open(p).and_then(|f| read_bounded(f, limit)),
        ),
    };
    let bytes = read.map_err(|e| {
        let what = match input {
            Input::Std => "cannot read standard input".to_string(),
            Input::Path(_) => format!("cannot read input `{name}`"),
        };
        (name.clone(), format!("{what}: {}", io_message(&e)))
    })?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = 1 + e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count();
        let msg = format!("cannot read input `{name}`: not valid UTF-8 (first bad byte at offset {at}, line {line})");
        (name.clone(), msg)
    })?;
    if let Some(at) = text.find('\0') {
        let (line, col) = line_col(&text, at);
        let msg = format!("cannot read input `{name}`: a NUL byte at offset {at} (line {line}, column {col}): binary data, not C source");
        return Err((name, msg));
    }
    Ok(SourceFile::new(name, text))
}

/// 1-based line and column (in bytes) of `offset`.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset];
    let line = 1 + before.bytes().filter(|&b| b == b'\n').count();
    let col = 1 + offset - before.rfind('\n').map_or(0, |i| i + 1);
    (line, col)
}

/// Reads everything from `r`, failing once more than `limit` bytes came
/// (0: no limit). Never holds more than `limit` + 1 bytes.
pub fn read_bounded(r: impl Read, limit: u64) -> std::io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    if limit == 0 {
        let mut r = r;
        r.read_to_end(&mut buf)?;
        return Ok(buf);
    }
    r.take(limit + 1).read_to_end(&mut buf)?;
    if buf.len() as u64 > limit {
        return Err(std::io::Error::other(format!(
            "larger than the input size limit of {} (--max-input-size)",
            size_text(limit)
        )));
    }
    Ok(buf)
}

/// `268435456` -> `256 MiB`; other sizes in bytes.
pub fn size_text(n: u64) -> String {
    for (shift, unit) in [(30, "GiB"), (20, "MiB"), (10, "KiB")] {
        if n >= 1 << shift && n % (1 << shift) == 0 {
            return format!("{} {unit}", n >> shift);
        }
    }
    format!("{n} bytes")
}

/// Opens the input. A FIFO is opened on a helper thread: opening it blocks
/// until a program opens it for writing, and after [`FIFO_WAIT`] without
/// one the read fails (the thread stays blocked until the process ends).
fn open(p: &Path) -> std::io::Result<std::fs::File> {
    if !is_fifo(p) {
        return std::fs::File::open(p);
    }
    let (tx, rx) = std::sync::mpsc::channel();
    let path = p.to_path_buf();
    std::thread::Builder::new()
        .name("p2c-fifo-open".into())
        .spawn(move || {
            let _ = tx.send(std::fs::File::open(path));
        })?;
    match rx.recv_timeout(FIFO_WAIT) {
        Ok(r) => r,
        Err(_) => Err(std::io::Error::other(format!(
            "a FIFO that no program opened for writing within {} s",
            FIFO_WAIT.as_secs()
        ))),
    }
}

#[cfg(unix)]
fn is_fifo(p: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::metadata(p).is_ok_and(|m| m.file_type().is_fifo())
}

#[cfg(not(unix))]
fn is_fifo(_: &Path) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_read_stops_after_the_limit() {
        let zeros = std::io::repeat(0);
        let e = read_bounded(zeros, 1000).unwrap_err();
        assert!(e.to_string().contains("limit of 1000 bytes"), "{e}");
        assert_eq!(read_bounded(&b"abc"[..], 3).unwrap(), b"abc");
        assert_eq!(read_bounded(&b"abcd"[..], 0).unwrap(), b"abcd");
        assert_eq!(size_text(256 << 20), "256 MiB");
        assert_eq!(size_text(1536), "1536 bytes");
    }

    #[test]
    fn nul_byte_is_located() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("bin.c");
        std::fs::write(&p, b"int x;\nin\0t y;\n").unwrap();
        let (_, msg) = read_input(&Input::Path(p)).unwrap_err();
        assert!(
            msg.ends_with("a NUL byte at offset 9 (line 2, column 3): binary data, not C source"),
            "{msg}"
        );
    }
}
