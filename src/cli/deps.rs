//! `-MD`, `-MMD`, `-MF`, `-MT`, `-MP`: where the dependency file goes, its
//! targets, and writing it after the output (the rule itself is
//! `pragma2cuda::files::deps`).

use super::args::TranslateArgs;
use pragma2cuda::files::deps::{make_rule, quoted_includes};
use pragma2cuda::files::preprocess::Header;
use pragma2cuda::files::{write_atomic, Stream};
use pragma2cuda::source::SourceFile;
use std::path::{Path, PathBuf};

/// The dependency file to write once the output is written.
pub struct DepPlan {
    file: PathBuf,
    targets: Vec<String>,
    phony: bool,
}

/// The input's file name with `ext` for its extension, in the current
/// directory (gcc's default for `-MD` without `-o`).
fn beside_cwd(input: &Path, ext: &str) -> PathBuf {
    PathBuf::from(input.file_name().unwrap_or_default()).with_extension(ext)
}

/// The plan of `-MD` (none without it). The file is `-MF`, else the output
/// with `.d` for its extension, else the input's name with `.d` in the
/// current directory; the targets are `-MT`'s, else the output, else the
/// input's name with `.cu`. Standard input with neither `-MF` nor `-o FILE`
/// is a usage error.
pub fn plan(t: &TranslateArgs) -> Result<Option<DepPlan>, String> {
    if !t.deps.write {
        return Ok(None);
    }
    let input = match &t.input {
        Stream::Path(p) => Some(p.as_path()),
        Stream::Std => None,
    };
    let output = match &t.output {
        Stream::Path(p) => Some(p.as_path()),
        Stream::Std => None,
    };
    let file = match (&t.deps.file, output, input) {
        (Some(f), _, _) => f.clone(),
        (None, Some(o), _) => o.with_extension("d"),
        (None, None, Some(i)) => beside_cwd(i, "d"),
        (None, None, None) => {
            return Err(
                "-MD on standard input needs -MF FILE (or -o FILE) to name the dependency file"
                    .into(),
            )
        }
    };
    let targets = if !t.deps.targets.is_empty() {
        t.deps.targets.clone()
    } else if let Some(o) = output {
        vec![o.display().to_string()]
    } else if let Some(i) = input {
        vec![beside_cwd(i, "cu").display().to_string()]
    } else {
        vec!["-".to_string()]
    };
    Ok(Some(DepPlan {
        file,
        targets,
        phony: t.deps.phony,
    }))
}

impl DepPlan {
    /// Writes the rule: the targets depend on `input` and `headers`.
    pub fn write(&self, input: &str, headers: &[String]) -> Result<(), (String, String)> {
        let rule = make_rule(&self.targets, input, headers, self.phony);
        write_atomic(&Stream::Path(self.file.clone()), rule.as_bytes())
    }
}

/// The headers the preprocessor read; `-MMD`: without system headers.
pub fn preprocessed(headers: &[Header], user_only: bool) -> Vec<String> {
    headers
        .iter()
        .filter(|h| !(user_only && h.system))
        .map(|h| h.path.clone())
        .collect()
}

/// Without `--preprocess`: the quoted headers the input includes (looked
/// for only when a dependency file is wanted).
pub fn quoted(input: &Stream, file: &SourceFile, wanted: bool) -> Vec<String> {
    match input {
        Stream::Path(p) if wanted => quoted_includes(p, &file.text)
            .iter()
            .map(|h| h.display().to_string())
            .collect(),
        _ => Vec::new(),
    }
}
