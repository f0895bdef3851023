//! `--emit=directives`: placeholder.
use super::ast::Directive;
use crate::source::SourceFile;

pub fn render_text(file: &SourceFile, dirs: &[Directive]) -> String {
    let _ = (file, dirs);
    String::new()
}

pub fn render_json(file: &SourceFile, dirs: &[Directive]) -> String {
    let _ = (file, dirs);
    String::from("[]\n")
}
