//! A precompiled header of the SIMT emulator for `verify`'s g++ builds, so
//! that a build compiles only the translation: most of an emulator build is
//! parsing `emu/include/cuda_runtime.h` and the C++ library under it.
//!
//! Every translation starts with `#include <cuda_runtime.h>`; g++ looks for
//! `cuda_runtime.h.gch` in each include directory before the header itself,
//! so the build puts the cache directory holding it in front of the
//! emulator's. g++ checks that a PCH fits the compilation (options, macros)
//! and otherwise reads the header as usual: a PCH can make a build faster,
//! never different.
//!
//! Cache: `$P2C_CACHE/emu-pch/KEY/cuda_runtime.h.gch` (default
//! `~/.cache/pragma2cuda`), KEY a hash of the compiler (path and
//! `--version`), the exact flags and the name and content of every emulator
//! header. A PCH is built into a unique temporary file and renamed into
//! place, so concurrent builds (harness workers) never see a partial one;
//! two that miss at once both build it and the last rename wins (same
//! content). `P2C_EMU_PCH=0` turns it off.
//!
//! Every include path and header content makes a new key, so the cache is
//! pruned after each build: least recently used entries first (a hit renews
//! its entry's modification time) until it holds at most
//! `P2C_EMU_PCH_MAX_MB` megabytes (default 2048); the entry just built stays.

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Mutex, OnceLock};

/// The directory to put before the emulator's include directory (`-I`), or
/// `None` to build without a PCH (turned off, no cache directory, or the PCH
/// did not build).
pub fn pch_dir(gxx: &Path, emu_include: &Path, flags: &[OsString]) -> Option<PathBuf> {
    if std::env::var_os("P2C_EMU_PCH").is_some_and(|v| v == "0") {
        return None;
    }
    let root = cache_root()?.join("emu-pch");
    let key = cache_key(gxx, emu_include, flags)?;
    let dir = root.join(key);
    let gch = dir.join("cuda_runtime.h.gch");
    if gch.is_file() {
        touch(&gch);
        return Some(dir);
    }
    let built = build(gxx, emu_include, flags, &dir, &gch);
    prune(&root, &dir, max_bytes());
    built.then_some(dir)
}

/// Default size cap of the cache (`P2C_EMU_PCH_MAX_MB` overrides).
const DEFAULT_MAX_MB: u64 = 2048;

fn max_bytes() -> u64 {
    std::env::var("P2C_EMU_PCH_MAX_MB")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .unwrap_or(DEFAULT_MAX_MB)
        .saturating_mul(1 << 20)
}

/// Marks an entry as used now (its modification time orders the eviction).
fn touch(gch: &Path) {
    if let Ok(f) = std::fs::File::options().write(true).open(gch) {
        let _ = f.set_modified(std::time::SystemTime::now());
    }
}

/// Removes the least recently used entries of `root` until the rest hold at
/// most `max` bytes; `keep` (the entry of this build) is never removed. An
/// entry removed under a concurrent build only costs that build its PCH.
fn prune(root: &Path, keep: &Path, max: u64) {
    let Ok(rd) = std::fs::read_dir(root) else {
        return;
    };
    let mut entries: Vec<(std::time::SystemTime, u64, PathBuf)> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .map(|p| {
            let (used, bytes) = usage(&p);
            (used, bytes, p)
        })
        .collect();
    // Newest first; the kept entry counts first of all.
    entries.sort_by_key(|e| std::cmp::Reverse((e.2 == keep, e.0)));
    let mut total = 0u64;
    for (_, bytes, p) in entries {
        total = total.saturating_add(bytes);
        if total > max && p != keep {
            let _ = std::fs::remove_dir_all(&p);
        }
    }
}

/// Latest modification time and total size of the files of one entry.
fn usage(dir: &Path) -> (std::time::SystemTime, u64) {
    let mut used = std::time::UNIX_EPOCH;
    let mut bytes = 0u64;
    for m in std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok()?.metadata().ok())
    {
        bytes = bytes.saturating_add(m.len());
        if let Ok(t) = m.modified() {
            used = used.max(t);
        }
    }
    (used, bytes)
}

fn cache_root() -> Option<PathBuf> {
    if let Some(c) = std::env::var_os("P2C_CACHE").filter(|c| !c.is_empty()) {
        return Some(PathBuf::from(c));
    }
    let cache = match std::env::var_os("XDG_CACHE_HOME") {
        Some(x) if !x.is_empty() => PathBuf::from(x),
        _ => PathBuf::from(std::env::var_os("HOME")?).join(".cache"),
    };
    Some(cache.join("pragma2cuda"))
}

/// Compiles the header into a temporary file beside `gch`, then renames it.
fn build(gxx: &Path, emu_include: &Path, flags: &[OsString], dir: &Path, gch: &Path) -> bool {
    if std::fs::create_dir_all(dir).is_err() {
        return false;
    }
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let tmp = dir.join(format!(
        "cuda_runtime.h.gch.{}.{}.{:?}.tmp",
        std::process::id(),
        nanos,
        std::thread::current().id()
    ));
    let ok = Command::new(gxx)
        .args(flags)
        .args(["-w", "-x", "c++-header"])
        .arg(emu_include.join("cuda_runtime.h"))
        .arg("-o")
        .arg(&tmp)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    let ok = ok && std::fs::rename(&tmp, gch).is_ok();
    let _ = std::fs::remove_file(&tmp);
    ok
}

/// Hex of a 128-bit hash over the compiler, the flags and the headers; `None`
/// when the compiler cannot tell its version or a header cannot be read.
fn cache_key(gxx: &Path, emu_include: &Path, flags: &[OsString]) -> Option<String> {
    key_from(gxx, &compiler_version(gxx)?, emu_include, flags)
}

fn key_from(gxx: &Path, version: &str, emu_include: &Path, flags: &[OsString]) -> Option<String> {
    let mut data: Vec<u8> = Vec::new();
    let mut put = |b: &[u8]| {
        data.extend_from_slice(&(b.len() as u64).to_le_bytes());
        data.extend_from_slice(b);
    };
    put(gxx.as_os_str().as_encoded_bytes());
    put(version.as_bytes());
    for f in flags {
        put(f.as_encoded_bytes());
    }
    for file in header_files(emu_include)? {
        put(file
            .strip_prefix(emu_include)
            .ok()?
            .as_os_str()
            .as_encoded_bytes());
        put(&std::fs::read(&file).ok()?);
    }
    Some(format!(
        "{:016x}{:016x}",
        fnv1a(&data, 0xcbf2_9ce4_8422_2325),
        fnv1a(&data, 0x6c62_272e_07bb_0142)
    ))
}

/// `g++ --version`, asked once per compiler and process.
fn compiler_version(gxx: &Path) -> Option<String> {
    static SEEN: OnceLock<Mutex<HashMap<PathBuf, Option<String>>>> = OnceLock::new();
    let seen = SEEN.get_or_init(|| Mutex::new(HashMap::new()));
    let mut map = seen.lock().unwrap_or_else(|e| e.into_inner());
    map.entry(gxx.to_path_buf())
        .or_insert_with(|| {
            let out = Command::new(gxx).arg("--version").output().ok()?;
            out.status
                .success()
                .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
        })
        .clone()
}

/// Every file under the emulator's include directory, sorted.
fn header_files(dir: &Path) -> Option<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).ok()? {
            let p = e.ok()?.path();
            if p.is_dir() {
                todo.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    Some(out)
}

fn fnv1a(data: &[u8], seed: u64) -> u64 {
    data.iter().fold(seed, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An entry `name` of `size` bytes last used `age` seconds ago.
    fn entry(root: &Path, name: &str, size: usize, age: u64) -> PathBuf {
        let dir = root.join(name);
        std::fs::create_dir(&dir).unwrap();
        let gch = dir.join("cuda_runtime.h.gch");
        std::fs::write(&gch, vec![0u8; size]).unwrap();
        let f = std::fs::File::options().write(true).open(&gch).unwrap();
        f.set_modified(std::time::SystemTime::now() - std::time::Duration::from_secs(age))
            .unwrap();
        dir
    }

    #[test]
    fn prune_evicts_least_recently_used_first() {
        let root = tempfile::tempdir().unwrap();
        let r = root.path();
        let old = entry(r, "old", 400, 300);
        let mid = entry(r, "mid", 400, 200);
        let new = entry(r, "new", 400, 100);
        let kept = entry(r, "kept", 400, 400);
        // A hit renews its entry: `old` becomes the most recently used.
        touch(&old.join("cuda_runtime.h.gch"));
        prune(r, &kept, 1200);
        assert!(kept.exists(), "the entry of this build stays");
        assert!(
            old.exists() && new.exists(),
            "the two most recently used stay"
        );
        assert!(!mid.exists(), "the least recently used goes");
        prune(r, &kept, 0);
        assert!(kept.exists());
        assert!(!old.exists() && !new.exists());
    }

    #[test]
    fn prune_keeps_a_cache_under_its_cap() {
        let root = tempfile::tempdir().unwrap();
        let r = root.path();
        let a = entry(r, "a", 100, 20);
        let b = entry(r, "b", 100, 10);
        prune(r, &b, 1000);
        assert!(a.exists() && b.exists());
    }

    #[test]
    fn key_changes_with_flags_and_headers() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("p2c_sim")).unwrap();
        std::fs::write(dir.path().join("cuda_runtime.h"), "a").unwrap();
        std::fs::write(dir.path().join("p2c_sim/x.h"), "b").unwrap();
        let gxx = Path::new("/usr/bin/g++");
        let k = |f: &[&str]| {
            let f: Vec<OsString> = f.iter().map(OsString::from).collect();
            key_from(gxx, "g++ 12", dir.path(), &f).unwrap()
        };
        assert_ne!(
            k(&["-O1"]),
            key_from(gxx, "g++ 13", dir.path(), &[OsString::from("-O1")]).unwrap()
        );
        let base = k(&["-O1"]);
        assert_eq!(base, k(&["-O1"]));
        assert_ne!(base, k(&["-O1", "-fopenmp"]));
        assert_ne!(k(&["-O1", "-DA"]), k(&["-O1-DA"]));
        std::fs::write(dir.path().join("p2c_sim/x.h"), "c").unwrap();
        assert_ne!(base, k(&["-O1"]));
    }
}
