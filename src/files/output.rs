//! Writing the output file. A regular file (new or existing) is replaced
//! atomically: a temporary file in the same directory, synced, then renamed
//! over it, keeping an existing file's permissions. What is not a regular
//! file is written into, never replaced: a symbolic link is followed (its
//! target is replaced atomically, or created when it does not exist), and a
//! device (`/dev/null`), FIFO or socket is opened and written.

use std::io::Write;
use std::path::Path;

/// The directory the output file goes into.
pub fn output_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Writes `data` to `path` by the rules of this module.
pub fn write_file(path: &Path, data: &[u8]) -> std::io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => match std::fs::canonicalize(path) {
            // The target exists: write it by its own rules.
            Ok(real) => write_file(&real, data),
            // A dangling link: create its target through it.
            Err(_) => write_into(path, data),
        },
        Ok(m) if m.is_dir() => Err(std::io::Error::other("Is a directory")),
        Ok(m) if m.is_file() => replace_atomically(path, data, Some(&m)),
        Ok(_) => write_into(path, data),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => replace_atomically(path, data, None),
        Err(e) => Err(e),
    }
}

/// Opens `path` for writing (following links, creating a missing file) and
/// writes `data` into it.
fn write_into(path: &Path, data: &[u8]) -> std::io::Result<()> {
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(path)?;
    f.write_all(data)?;
    f.flush()
}

/// Writes a temporary file beside `path` and renames it over `path`; the new
/// file gets `old`'s permissions (and owner, where allowed), or 0666 & ~umask.
fn replace_atomically(
    path: &Path,
    data: &[u8],
    old: Option<&std::fs::Metadata>,
) -> std::io::Result<()> {
    let dir = output_dir(path);
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let prefix = format!(".{file_name}.");
    let mut b = tempfile::Builder::new();
    b.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        // A new output file gets the usual 0666 & ~umask, not tempfile's 0600.
        use std::os::unix::fs::PermissionsExt;
        b.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = b.tempfile_in(dir)?;
    if let Some(old) = old {
        keep_owner_and_mode(tmp.as_file(), old)?;
    }
    tmp.write_all(data)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    // Make the rename itself durable; failing to sync a directory is not an error.
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Gives the new file the replaced file's owner (best effort: only root
/// may) and then its mode (after chown, which may clear set-id bits).
fn keep_owner_and_mode(f: &std::fs::File, old: &std::fs::Metadata) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let _ = std::os::unix::fs::fchown(f, Some(old.uid()), Some(old.gid()));
    }
    f.set_permissions(old.permissions())
}

/// Whether `output` names the same file as `input` (the same path, or the
/// same device and inode through another path, a hard link or a symbolic
/// link). Only an existing regular file can be the input overwritten.
pub fn is_same_file(input: &Path, output: &Path) -> bool {
    let (Ok(i), Ok(o)) = (std::fs::metadata(input), std::fs::metadata(output)) else {
        return false;
    };
    if !o.is_file() {
        return false;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        i.dev() == o.dev() && i.ino() == o.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = i;
        std::fs::canonicalize(input).ok() == std::fs::canonicalize(output).ok()
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn existing_file_keeps_its_mode() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("out.cu");
        std::fs::write(&p, "old").unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o640)).unwrap();
        write_file(&p, b"new").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"new");
        let mode = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
    }

    #[test]
    fn symlink_is_followed_and_kept() {
        let d = tempfile::tempdir().unwrap();
        let real = d.path().join("real.cu");
        std::fs::write(&real, "old").unwrap();
        let link = d.path().join("link.cu");
        std::os::unix::fs::symlink("real.cu", &link).unwrap();
        write_file(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read(&real).unwrap(), b"new");
        let dangling = d.path().join("dangling.cu");
        std::os::unix::fs::symlink("made.cu", &dangling).unwrap();
        write_file(&dangling, b"made").unwrap();
        assert!(std::fs::symlink_metadata(&dangling)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read(d.path().join("made.cu")).unwrap(), b"made");
    }

    #[test]
    fn same_file_through_links() {
        let d = tempfile::tempdir().unwrap();
        let a = d.path().join("a.c");
        std::fs::write(&a, "x").unwrap();
        let hard = d.path().join("hard.c");
        std::fs::hard_link(&a, &hard).unwrap();
        let soft = d.path().join("soft.c");
        std::os::unix::fs::symlink("a.c", &soft).unwrap();
        assert!(is_same_file(&a, &a));
        assert!(is_same_file(&a, &hard));
        assert!(is_same_file(&soft, &a));
        assert!(!is_same_file(&a, &d.path().join("other.cu")));
    }
}
