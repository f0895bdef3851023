//! The extent of an array parameter named whole in an OpenACC data clause.
//!
//! A parameter declared `double a[N][M]` is a pointer, `double (*a)[M]`,
//! but OpenACC 3.3 (2.7.1, data specification in data clauses) takes the
//! extent of an array named without a subarray from its declaration: in
//! `copyin(a)` the data is the whole `N` x `M` array, `a[0:N]`. This module
//! gives that section; without a declared outer bound (`a[][M]`) there is
//! no extent (E0401), and a bound that names a variable (a variable-length
//! array parameter, whose bound C evaluates at the function's entry) is not
//! lowered (E0901). OpenMP maps such an item as the pointer itself
//! (`sema::pointer_itself`).

use super::symbols::Scope;
use crate::diag::{codes, Diagnostic};
use crate::directives::{ExprText, ListItem, Model, Section};
use crate::ir::c::{Storage, Symbol};

/// The section `[0:N]` that `item` stands for when it names an array
/// parameter `sym` whole in an OpenACC data clause; `Ok(None)` when the
/// rule does not apply (a section is written, another model, not an
/// array parameter).
pub fn declared_section(
    model: Model,
    item: &ListItem,
    sym: &Symbol,
    symbols: &Scope,
) -> Result<Option<Section>, Box<Diagnostic>> {
    if model != Model::Acc || !item.sections.is_empty() || !item.path.is_empty() {
        return Ok(None);
    }
    let (Storage::Param, Some(bound)) = (sym.storage, &sym.param_bound) else {
        return Ok(None);
    };
    let Some(bound) = bound.as_deref().map(str::trim).filter(|b| !b.is_empty()) else {
        return Err(Box::new(
            Diagnostic::new(
                codes::POINTER_NO_EXTENT,
                item.span,
                format!(
                    "array parameter `{}` is declared with no outer bound, so naming it whole gives no extent",
                    item.name
                ),
            )
            .with_label("no array section")
            .with_secondary(sym.span, "declared here without an outer bound")
            .with_help(format!(
                "map the data with an array section, e.g. `{}[0:n]`",
                item.name
            )),
        ));
    };
    if let Some(var) = variable_in(bound, symbols) {
        return Err(Box::new(
            Diagnostic::new(
                codes::NOT_SUPPORTED,
                item.span,
                format!(
                    "the extent of `{}` from its variable-length bound `{bound}` is not supported yet",
                    item.name
                ),
            )
            .with_label("whole array parameter")
            .with_secondary(sym.span, format!("declared with a bound naming the variable `{var}`"))
            .with_help(format!(
                "name the section: `{}[0:{bound}]` (the bound's value now, not at the function's entry)",
                item.name
            )),
        ));
    }
    Ok(Some(Section {
        lower: None,
        length: Some(ExprText {
            text: format!("({bound})"),
            span: sym.decl_span,
        }),
        stride: None,
        is_index: false,
        span: item.span,
    }))
}

/// The first variable visible at the directive that `bound` names.
fn variable_in<'a>(bound: &'a str, symbols: &Scope) -> Option<&'a str> {
    bound
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
        .find(|w| {
            symbols
                .get(w)
                .is_some_and(|s| !s.is_typedef && !s.ty.is_function())
        })
}

#[cfg(test)]
mod tests {
    use crate::source::SourceFile;

    fn translate(src: &str) -> crate::Translation {
        crate::translate(&SourceFile::new("t.c", src), &crate::Options::default())
    }

    fn codes(src: &str) -> Vec<String> {
        translate(src)
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.code.as_str().to_string())
            .collect()
    }

    const BODY: &str =
        "{\n#pragma acc parallel loop\n for (int i = 0; i < 4; i++) a[i][0] = i;\n}\n}\n";

    #[test]
    fn bounded_array_parameter_maps_its_declared_rows() {
        let src =
            format!("#define N 6\nvoid f(double a[N][3]) {{\n#pragma acc data copy(a)\n{BODY}");
        let t = translate(&src);
        assert!(!t.has_errors(), "{:?}", t.diagnostics);
        let out = t.output.unwrap_or_default();
        // The mapped range is the declared N rows of 3 doubles, not the pointer.
        assert!(out.contains("(N)"), "the extent N is not in the mapping");
    }

    #[test]
    fn no_outer_bound_is_one_e0401() {
        let src = format!("void f(double a[][3]) {{\n#pragma acc data copy(a)\n{BODY}");
        let src = src.replacen("#pragma acc data copy(a)\n{", "{", 1);
        let src = src.replacen(
            "#pragma acc parallel loop",
            "#pragma acc parallel loop copy(a)",
            1,
        );
        assert_eq!(codes(&src), vec!["E0401"]);
    }

    #[test]
    fn variable_bound_is_e0901() {
        let src = "void f(int n, double v[n]) {\n#pragma acc enter data copyin(v)\n}\n";
        assert_eq!(codes(src), vec!["E0901"]);
    }

    #[test]
    fn openmp_maps_the_pointer_parameter_itself() {
        let src = "void f(double v[8]) {\n#pragma omp target enter data map(to: v)\n}\n";
        assert!(codes(src).is_empty());
    }
}
