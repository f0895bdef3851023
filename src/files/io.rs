//! The input and output streams: errors as messages, the output's checks.
//! Reading is `input.rs`, writing a file `output.rs`.

use super::output::output_dir;
use super::{Input, Output};
use std::io::Write;

/// The text of an I/O error without Rust's ` (os error N)` suffix, so messages
/// read like the C tools' (`No such file or directory`).
pub fn io_message(e: &std::io::Error) -> String {
    if let Some(code) = e.raw_os_error() {
        let s = std::io::Error::from_raw_os_error(code).to_string();
        return s.split(" (os error ").next().unwrap_or(&s).to_string();
    }
    // Wrapped errors (tempfile adds ` at path ...`): keep the OS text only.
    let s = e.to_string();
    let s = s.split(" (os error ").next().unwrap_or(&s);
    s.split(" at path ").next().unwrap_or(s).to_string()
}

/// Writes `data` to the output. A regular file is written to a temporary file
/// in the destination directory, flushed to disk, then renamed over the
/// destination: readers never see a partial file and a failure leaves an old
/// file intact. Links, devices and FIFOs are written into (`output.rs`).
/// On failure returns the display name and the message of an E0002 diagnostic.
pub fn write_atomic(output: &Output, data: &[u8]) -> Result<(), (String, String)> {
    match output {
        Output::Std => {
            let mut out = std::io::stdout().lock();
            out.write_all(data).and_then(|_| out.flush()).map_err(|e| {
                (
                    "<stdout>".to_string(),
                    format!("cannot write standard output: {}", io_message(&e)),
                )
            })
        }
        Output::Path(p) => super::output::write_file(p, data).map_err(|e| {
            let name = p.display().to_string();
            let msg = format!("cannot write output `{name}`: {}", io_message(&e));
            (name, msg)
        }),
    }
}

/// Checks, before any work, that the output can be created: its directory
/// exists and it is not itself a directory. Same error shape as [`write_atomic`].
pub fn check_output(output: &Output) -> Result<(), (String, String)> {
    let Output::Path(p) = output else {
        return Ok(());
    };
    let fail = |why: String| {
        (
            p.display().to_string(),
            format!("cannot write output `{}`: {why}", p.display()),
        )
    };
    if p.is_dir() {
        return Err(fail("Is a directory".into()));
    }
    match std::fs::metadata(output_dir(p)) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err(fail("Not a directory".into())),
        Err(e) => Err(fail(io_message(&e))),
    }
}

/// Refuses an output file that is the input file (by path, hard link or
/// symbolic link): the translation would replace the source it came from.
pub fn check_not_input(input: &Input, output: &Output) -> Result<(), (String, String)> {
    let (Input::Path(i), Output::Path(o)) = (input, output) else {
        return Ok(());
    };
    if !super::output::is_same_file(i, o) {
        return Ok(());
    }
    Err((
        o.display().to_string(),
        format!(
            "cannot write output `{}`: it is the input file `{}`; the translation would replace its own source (choose another -o)",
            o.display(),
            i.display()
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_new_and_replaces_old_without_leftovers() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("out.cu");
        write_atomic(&Output::Path(p.clone()), b"first\n").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"first\n");
        write_atomic(&Output::Path(p.clone()), b"second\n").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"second\n");
        let names: Vec<_> = std::fs::read_dir(d.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("out.cu")]);
    }

    #[cfg(unix)]
    #[test]
    fn new_file_is_not_private() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("out.cu");
        write_atomic(&Output::Path(p.clone()), b"x").unwrap();
        let mode = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
        assert_ne!(mode & 0o044, 0, "mode {mode:o} is private to the owner");
    }

    #[test]
    fn missing_directory_is_reported() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("nope").join("out.cu");
        let (name, msg) = write_atomic(&Output::Path(p.clone()), b"x").unwrap_err();
        assert_eq!(name, p.display().to_string());
        assert!(msg.ends_with(": No such file or directory"), "{msg}");
    }

    #[test]
    fn directory_as_output_is_reported_and_kept() {
        let d = tempfile::tempdir().unwrap();
        let (_, msg) = write_atomic(&Output::Path(d.path().to_path_buf()), b"x").unwrap_err();
        assert!(msg.contains("Is a directory"), "{msg}");
        assert!(d.path().is_dir());
    }

    #[test]
    fn input_errors() {
        use crate::files::read_input;
        let d = tempfile::tempdir().unwrap();
        let missing = d.path().join("x.c");
        let (_, msg) = read_input(&Input::Path(missing.clone())).unwrap_err();
        assert_eq!(
            msg,
            format!(
                "cannot read input `{}`: No such file or directory",
                missing.display()
            )
        );
        let (_, msg) = read_input(&Input::Path(d.path().to_path_buf())).unwrap_err();
        assert!(msg.ends_with(": Is a directory"), "{msg}");
        let bad = d.path().join("bad.c");
        std::fs::write(&bad, b"int x;\n\xff\n").unwrap();
        let (_, msg) = read_input(&Input::Path(bad)).unwrap_err();
        assert!(
            msg.contains("not valid UTF-8 (first bad byte at offset 7, line 2)"),
            "{msg}"
        );
        let good = d.path().join("good.c");
        std::fs::write(&good, "int x;\n").unwrap();
        let f = read_input(&Input::Path(good.clone())).unwrap();
        assert_eq!(
            (f.name, f.text),
            (good.display().to_string(), "int x;\n".to_string())
        );
    }
}
