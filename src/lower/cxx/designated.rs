//! Initializer lists: C's designated initializers in the form C++ compilers
//! accept, and the conversions of their elements (`convert`).
//!
//! C++ (as nvcc's host compiler and clang read it) wants a struct's member
//! designators in declaration order, without nesting (`.a.b = 1`) and
//! without mixing positional elements, and has no array designators. A
//! struct's list that is not so is rewritten with every member designated,
//! in order; an array's list with designators is rewritten positionally,
//! gaps as `{}` (value-initialized, as C's implicit zero). What cannot be
//! rewritten (nested designators, ranges, indices that are not integer
//! constants) is refused (E0501) naming the construct.

use super::convert::convert;
use super::scope::Scopes;
use super::Edit;
use crate::diag::{codes, Diagnostic};
use crate::front::c::Node;
use crate::sema::ctype::{CType, Deriv};
use crate::sema::layout::Consts;
use crate::source::Span;

/// The largest array index a designator may have for the positional rewrite.
const MAX_INDEX: i128 = 1 << 16;

pub struct Lists<'a> {
    pub text: &'a str,
    pub scopes: &'a Scopes,
    pub consts: &'a Consts,
}

fn text_of<'s>(n: Node<'_>, text: &'s str) -> &'s str {
    text.get(n.start_byte()..n.end_byte()).unwrap_or("")
}

fn elements<'t>(list: Node<'t>) -> Vec<Node<'t>> {
    let mut c = list.walk();
    list.named_children(&mut c)
        .filter(|e| e.kind() != "comment")
        .collect()
}

/// The designator of initializer pair `e`: one, of `kind`; else refused
/// (a nested designator, or `what`).
fn one_designator<'t>(
    e: Node<'t>,
    kind: &str,
    what: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<Node<'t>> {
    let mut c = e.walk();
    let ds: Vec<Node<'t>> = e.children_by_field_name("designator", &mut c).collect();
    let [d] = ds.as_slice() else {
        refuse(e, "a nested designator", diags);
        return None;
    };
    if d.kind() != kind {
        refuse(e, what, diags);
        return None;
    }
    Some(*d)
}

fn refuse(at: Node<'_>, what: &str, diags: &mut Vec<Diagnostic>) {
    diags.push(
        Diagnostic::new(
            codes::NOT_CXX,
            Span::new(at.start_byte(), at.end_byte()),
            format!("{what} has no C++ spelling pragma2cuda can write"),
        )
        .with_label("C-only designated initializer")
        .with_help("write the initializer without designators, or assign the elements"),
    );
}

impl Lists<'_> {
    /// Handles the initializer list `list` of an object of type `ty`,
    /// pushing edits onto `edits`.
    pub fn list(
        &self,
        list: Node<'_>,
        ty: &CType,
        edits: &mut Vec<Edit>,
        diags: &mut Vec<Diagnostic>,
    ) {
        let els = elements(list);
        let designated = els.iter().any(|e| e.kind() == "initializer_pair");
        match ty.derivs.first() {
            Some(Deriv::Array(_)) => {
                let elem = ty.element();
                if designated {
                    self.array(list, &els, &elem, edits, diags);
                } else {
                    for e in els {
                        self.element(e, &elem, edits, diags);
                    }
                }
            }
            None => {
                let Some(members) = self.scopes.members(ty) else {
                    return;
                };
                if designated {
                    self.record(list, &els, members, edits, diags);
                } else {
                    for (e, (_, mt)) in els.into_iter().zip(members) {
                        self.element(e, mt, edits, diags);
                    }
                }
            }
            _ => {}
        }
    }

    /// One element's value: a nested list, or a value to convert.
    fn element(&self, e: Node<'_>, ty: &CType, edits: &mut Vec<Edit>, diags: &mut Vec<Diagnostic>) {
        if e.kind() == "initializer_list" {
            self.list(e, ty, edits, diags);
        } else if e.kind() != "initializer_pair" {
            convert(Some(ty), e, self.text, self.scopes, edits, diags);
        }
    }

    /// The text of `value` (an element of type `ty`) with its own edits applied.
    fn value_text(&self, value: Node<'_>, ty: &CType, diags: &mut Vec<Diagnostic>) -> String {
        let mut own = Vec::new();
        self.element(value, ty, &mut own, diags);
        crate::ir::edit::apply(
            self.text,
            Span::new(value.start_byte(), value.end_byte()),
            &own,
        )
    }

    fn record(
        &self,
        list: Node<'_>,
        els: &[Node<'_>],
        members: &[(String, CType)],
        edits: &mut Vec<Edit>,
        diags: &mut Vec<Diagnostic>,
    ) {
        // The member each element initializes, and whether that is already C++.
        let mut slots: Vec<(usize, Node<'_>)> = Vec::new();
        let mut next = 0usize;
        let mut in_order = true;
        let mut last: Option<usize> = None;
        for e in els {
            let (idx, value) = if e.kind() == "initializer_pair" {
                let what = "an array designator in a struct's initializer";
                let Some(d) = one_designator(*e, "field_designator", what, diags) else {
                    return;
                };
                let field = text_of(d, self.text).trim_start_matches('.').trim();
                let Some(i) = members.iter().position(|(m, _)| m == field) else {
                    return;
                };
                let Some(v) = e.child_by_field_name("value") else {
                    return;
                };
                (i, v)
            } else {
                in_order = false;
                (next, *e)
            };
            if idx >= members.len() {
                return;
            }
            if last.is_some_and(|l| idx <= l) {
                in_order = false;
            }
            last = Some(idx);
            next = idx + 1;
            slots.push((idx, value));
        }
        if in_order {
            for (i, v) in slots {
                self.element(v, &members[i].1, edits, diags);
            }
            return;
        }
        let mut values: Vec<Option<String>> = vec![None; members.len()];
        for (i, v) in slots {
            values[i] = Some(self.value_text(v, &members[i].1, diags));
        }
        let parts: Vec<String> = values
            .iter()
            .zip(members)
            .filter_map(|(v, (m, _))| v.as_ref().map(|v| format!(".{m} = {v}")))
            .collect();
        edits.push(Edit::replace(
            Span::new(list.start_byte(), list.end_byte()),
            format!("{{{}}}", parts.join(", ")),
        ));
    }

    fn array(
        &self,
        list: Node<'_>,
        els: &[Node<'_>],
        elem: &CType,
        edits: &mut Vec<Edit>,
        diags: &mut Vec<Diagnostic>,
    ) {
        let mut values: Vec<Option<String>> = Vec::new();
        let mut next: i128 = 0;
        for e in els {
            let (idx, value) = if e.kind() == "initializer_pair" {
                let what = "this array designator";
                let Some(d) = one_designator(*e, "subscript_designator", what, diags) else {
                    return;
                };
                let inner = d
                    .named_child(0)
                    .map(|n| text_of(n, self.text))
                    .unwrap_or("");
                let Some(i) = self
                    .consts
                    .eval(inner)
                    .filter(|i| (0..MAX_INDEX).contains(i))
                else {
                    return refuse(*e, "an array designator whose index is not an integer constant pragma2cuda can evaluate", diags);
                };
                let Some(v) = e.child_by_field_name("value") else {
                    return;
                };
                (i, v)
            } else {
                (next, *e)
            };
            if idx >= MAX_INDEX {
                return refuse(*e, "an array initializer this long", diags);
            }
            let i = idx as usize;
            if values.len() <= i {
                values.resize(i + 1, None);
            }
            values[i] = Some(self.value_text(value, elem, diags));
            next = idx + 1;
        }
        let parts: Vec<String> = values
            .into_iter()
            .map(|v| v.unwrap_or_else(|| "{}".to_string()))
            .collect();
        edits.push(Edit::replace(
            Span::new(list.start_byte(), list.end_byte()),
            format!("{{{}}}", parts.join(", ")),
        ));
    }
}
