//! Preprocessed text and the lines it came from (`--preprocess`).
//!
//! `cc -E` writes GNU line markers (`# 12 "file.c" 1 3 4`) between the lines
//! it produces. [`unmark`] turns that output into the text pragma2cuda
//! translates, with a [`LineMap`] from each of its lines back to the file and
//! line the preprocessor read, so diagnostics and generated comments name the
//! user's files. It also decides what of the preprocessed unit stays in the
//! output:
//!
//! - the lines of the input file and of user headers (found through quotes
//!   or `-I`) are kept: their contents end up in the output, which is then
//!   self-contained apart from system headers;
//! - a system header (marker flag 3) is not inlined: the `#include` line that
//!   brought it in from a user file is kept instead (but a system macro
//!   expanded in a user line, marked `# 2 "m.c" 3 4`, stays). System headers
//!   preprocessed as C do not compile as C++ (glibc declares C-only types and
//!   drops `extern "C"` when `__cplusplus` is not defined), and nvcc or clang
//!   include them again themselves;
//! - the compiler's predefined macros (`<built-in>`) are dropped; with `-dD`
//!   the user's `#define`s and the `-D` flags (`<command-line>`) stay, so the
//!   system headers included again see the same feature macros.

/// For each line of a preprocessed text, the file and line it came from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineMap {
    files: Vec<String>,
    /// Per line of the text (index 0 is line 1): (file index, 1-based line).
    lines: Vec<(u32, u32)>,
    /// The text of each file as written, where it could be read: positions
    /// are shown in it (the preprocessor re-spaces some lines).
    originals: Vec<(String, String)>,
}

impl LineMap {
    /// The file name and 1-based line that line `line` (1-based) of the text
    /// came from. Lines past the end map to the last known line.
    pub fn origin(&self, line: usize) -> Option<(&str, usize)> {
        let i = line.saturating_sub(1).min(self.lines.len().checked_sub(1)?);
        let (f, l) = self.lines[i];
        Some((self.files[f as usize].as_str(), l as usize))
    }

    /// Records the text of `file` as written.
    pub fn set_original(&mut self, file: &str, text: String) {
        self.originals.retain(|(f, _)| f != file);
        self.originals.push((file.to_string(), text));
    }

    /// The text of `file` as written, when it was recorded.
    pub fn original(&self, file: &str) -> Option<&str> {
        self.originals
            .iter()
            .find(|(f, _)| f == file)
            .map(|(_, t)| t.as_str())
    }

    /// Every file name the map refers to, in first-seen order.
    pub fn files(&self) -> &[String] {
        &self.files
    }

    /// The lines of the text (1-based) that came from `file`, with their
    /// original line numbers, in text order.
    pub fn lines_of(&self, file: &str) -> Vec<(usize, usize)> {
        let Some(fi) = self.files.iter().position(|f| f == file) else {
            return Vec::new();
        };
        self.lines
            .iter()
            .enumerate()
            .filter(|(_, (f, _))| *f as usize == fi)
            .map(|(i, (_, l))| (i + 1, *l as usize))
            .collect()
    }

    fn file_index(&mut self, name: &str) -> u32 {
        match self.files.iter().position(|f| f == name) {
            Some(i) => i as u32,
            None => {
                self.files.push(name.to_string());
                (self.files.len() - 1) as u32
            }
        }
    }
}

/// A line marker: `# 12 "name" 1 3` (or `#line 12 "name"`).
#[derive(Debug, PartialEq, Eq)]
struct Marker {
    line: u32,
    file: String,
    flags: Vec<u8>,
}

fn marker(line: &str) -> Option<Marker> {
    let rest = line.strip_prefix('#')?;
    let rest = rest.trim_start_matches([' ', '\t']);
    let rest = rest.strip_prefix("line").unwrap_or(rest);
    let rest = rest.trim_start_matches([' ', '\t']);
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let number: u32 = rest[..digits].parse().ok()?;
    let rest = rest[digits..].trim_start_matches([' ', '\t']);
    let rest = rest.strip_prefix('"')?;
    let mut file = String::new();
    let mut chars = rest.char_indices();
    let mut end = None;
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                if let Some((_, n)) = chars.next() {
                    file.push(n);
                }
            }
            '"' => {
                end = Some(i + 1);
                break;
            }
            _ => file.push(c),
        }
    }
    let flags = rest[end?..]
        .split_whitespace()
        .filter_map(|f| f.parse().ok())
        .collect();
    Some(Marker {
        line: number,
        file,
        flags,
    })
}

/// The preprocessed text without its line markers, and where each line came from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Unmarked {
    pub text: String,
    pub map: LineMap,
}

/// Reads `cc -E` output (see the module doc). `main` names the input when
/// the output has no marker before its first line. `include_line(file, line)`
/// returns the text of line `line` of a user file (the `#include` of a system
/// header); when it cannot, an `#include "path"` with the header's path as
/// the preprocessor found it is written instead.
pub fn unmark(
    out: &str,
    main: &str,
    mut include_line: impl FnMut(&str, usize) -> Option<String>,
) -> Unmarked {
    let mut map = LineMap::default();
    let mut text = String::with_capacity(out.len());
    let mut cur = map.file_index(main);
    let mut cur_line: u32 = 1;
    let mut builtin = false;
    let mut system = false;
    for raw in out.split_inclusive('\n') {
        let line = raw.trim_end_matches(['\n', '\r']);
        if let Some(m) = marker(line) {
            if m.file == "<built-in>" {
                builtin = true;
                continue;
            }
            builtin = false;
            // A system header's macro expanded in a user file (`rand() /
            // RAND_MAX`): gcc marks the expansion's lines `# 2 "m.c" 3 4`
            // in the middle of the user's line. They are the user's text.
            let expansion = m.flags.contains(&3)
                && !m.flags.contains(&1)
                && !m.flags.contains(&2)
                && !system
                && map.files[cur as usize] == m.file;
            if m.flags.contains(&3) && !expansion {
                let entering_from_user = !system && m.flags.contains(&1);
                let from = map.files[cur as usize].clone();
                if entering_from_user && !from.starts_with('<') {
                    let directive = include_line(&from, cur_line as usize)
                        .filter(|l| l.trim_start().starts_with('#'))
                        .unwrap_or_else(|| format!("#include \"{}\"", m.file.replace('"', "\\\"")));
                    text.push_str(directive.trim_end());
                    text.push('\n');
                    map.lines.push((cur, cur_line));
                }
                system = true;
                continue;
            }
            system = false;
            cur = map.file_index(&m.file);
            cur_line = m.line;
            continue;
        }
        if builtin || system {
            continue;
        }
        text.push_str(line);
        text.push('\n');
        map.lines.push((cur, cur_line));
        cur_line = cur_line.saturating_add(1);
    }
    Unmarked { text, map }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OUT: &str = "# 0 \"m.c\"\n# 0 \"<built-in>\"\n#define __STDC__ 1\n# 0 \"<command-line>\"\n#define SCALE 3\n# 1 \"/usr/include/stdc-predef.h\" 1 3 4\n#define __STDC_IEC_559__ 1\n# 0 \"<command-line>\" 2\n# 1 \"m.c\"\n#define _GNU_SOURCE\n# 1 \"/usr/include/stdio.h\" 1 3 4\nextern int printf(const char *, ...);\n# 1 \"/usr/include/bits/x.h\" 1 3 4\nint x;\n# 5 \"/usr/include/stdio.h\" 2 3 4\n# 3 \"m.c\" 2\n# 1 \"inc/par.h\" 1\n#define PAR _Pragma(\"omp for\")\n# 1 \"/usr/include/stddef.h\" 1 3 4\ntypedef unsigned long size_t;\n# 3 \"inc/par.h\" 2\nstatic int twice(int x) { return 2 * x; }\n# 4 \"m.c\" 2\nint main(void) {\n \n# 7 \"m.c\"\n#pragma omp for\n# 7 \"m.c\"\n \n  for (;;);\n}\n";

    #[test]
    fn markers() {
        assert_eq!(
            marker("# 12 \"a \\\"b\\\".c\" 1 3"),
            Some(Marker {
                line: 12,
                file: "a \"b\".c".into(),
                flags: vec![1, 3]
            })
        );
        assert_eq!(marker("#line 4 \"x.c\"").map(|m| m.line), Some(4));
        assert_eq!(marker("#pragma omp for"), None);
        assert_eq!(marker("# 12"), None);
        assert_eq!(marker("#define X 1"), None);
    }

    #[test]
    fn unmarks_and_maps_lines() {
        let mut asked = Vec::new();
        let u = unmark(OUT, "m.c", |f, l| {
            asked.push((f.to_string(), l));
            match (f, l) {
                ("m.c", 2) => Some("#include <stdio.h>".into()),
                _ => None,
            }
        });
        assert_eq!(
            u.text,
            "#define SCALE 3\n#define _GNU_SOURCE\n#include <stdio.h>\n#define PAR _Pragma(\"omp for\")\n#include \"/usr/include/stddef.h\"\nstatic int twice(int x) { return 2 * x; }\nint main(void) {\n \n#pragma omp for\n \n  for (;;);\n}\n"
        );
        assert_eq!(
            asked,
            [("m.c".to_string(), 2), ("inc/par.h".to_string(), 2)]
        );
        let o = |l| u.map.origin(l).map(|(f, l)| (f.to_string(), l));
        assert_eq!(o(1), Some(("<command-line>".into(), 0)));
        assert_eq!(o(2), Some(("m.c".into(), 1)));
        assert_eq!(o(3), Some(("m.c".into(), 2)));
        assert_eq!(o(4), Some(("inc/par.h".into(), 1)));
        assert_eq!(o(5), Some(("inc/par.h".into(), 2)));
        assert_eq!(o(7), Some(("m.c".into(), 4)));
        assert_eq!(o(9), Some(("m.c".into(), 7)));
        assert_eq!(o(10), Some(("m.c".into(), 7)));
        assert_eq!(o(11), Some(("m.c".into(), 8)));
        assert_eq!(o(99), Some(("m.c".into(), 9)));
        assert_eq!(u.map.lines_of("inc/par.h"), [(4, 1), (5, 2), (6, 3)]);
    }

    #[test]
    fn system_macro_expanded_in_a_user_line() {
        let out = "# 1 \"r.c\"\nint x = 1 + (\n# 1 \"r.c\" 3 4\n    2147483647\n# 1 \"r.c\"\n    );\nint y;\n";
        let u = unmark(out, "r.c", |_, _| None);
        assert_eq!(u.text, "int x = 1 + (\n    2147483647\n    );\nint y;\n");
        assert_eq!(u.map.origin(4), Some(("r.c", 2)));
    }

    #[test]
    fn no_markers_and_odd_input() {
        let u = unmark("int a;\nint b;", "x.c", |_, _| None);
        assert_eq!(u.text, "int a;\nint b;\n");
        assert_eq!(u.map.origin(2), Some(("x.c", 2)));
        assert_eq!(unmark("", "x.c", |_, _| None).map.origin(1), None);
        for t in ["# 1 \"", "# 1 \"a\" 1 3 4", "#line", "# 99999999999 \"x\""] {
            let _ = unmark(t, "x.c", |_, _| None);
        }
    }
}
