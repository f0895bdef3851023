//! One list item in two map clauses of one construct (`copyin(x)
//! copyout(x)`, `map(present, to: x) map(from: x)`).
//!
//! OpenMP 5.2 (5.8.3) processes the map clauses of a list item together
//! (those with `present` first), and OpenACC's copyin / copyout / copy /
//! create of one variable on one construct move the data each way any of
//! them asks for. The translation gives the variable one map whose
//! transfers are the union of the clauses' (`to` + `from` = `tofrom`,
//! `alloc` adds none) and whose modifiers are those of any clause. Only the
//! same range merges (the same sections, as written); `present` (OpenACC)
//! and pointer attachments keep their own meaning and are not merged.

use super::sharing::{MapKind, MapMods};
use crate::directives::Section;

/// The transfers of a map kind: (to the device, back to the host).
fn directions(k: MapKind) -> Option<(bool, bool)> {
    match k {
        MapKind::Alloc => Some((false, false)),
        MapKind::To => Some((true, false)),
        MapKind::From => Some((false, true)),
        MapKind::ToFrom => Some((true, true)),
        MapKind::Present | MapKind::Attach => None,
    }
}

fn same_sections(a: &[Section], b: &[Section]) -> bool {
    let text =
        |e: &Option<crate::directives::ExprText>| e.as_ref().map(|e| e.text.trim().to_string());
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            x.is_index == y.is_index
                && text(&x.lower) == text(&y.lower)
                && text(&x.length) == text(&y.length)
                && text(&x.stride) == text(&y.stride)
        })
}

/// The one map of two map clauses naming the same range, or None when they
/// do not merge (another range, `present`, an attachment).
pub fn merge(
    (k1, s1, m1): (MapKind, &[Section], MapMods),
    (k2, s2, m2): (MapKind, &[Section], MapMods),
) -> Option<(MapKind, MapMods)> {
    let (to1, from1) = directions(k1)?;
    let (to2, from2) = directions(k2)?;
    if !same_sections(s1, s2) {
        return None;
    }
    let kind = match (to1 || to2, from1 || from2) {
        (false, false) => MapKind::Alloc,
        (true, false) => MapKind::To,
        (false, true) => MapKind::From,
        (true, true) => MapKind::ToFrom,
    };
    let mods = MapMods {
        always: m1.always || m2.always,
        present: m1.present || m2.present,
        zero: m1.zero || m2.zero,
        itself: m1.itself || m2.itself,
        device_addr: m1.device_addr || m2.device_addr,
    };
    Some((kind, mods))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transfers_unite_and_modifiers_add_up() {
        let none = MapMods::default();
        let present = MapMods {
            present: true,
            ..none
        };
        assert_eq!(
            merge((MapKind::To, &[], present), (MapKind::From, &[], none)),
            Some((MapKind::ToFrom, present))
        );
        assert_eq!(
            merge((MapKind::Alloc, &[], none), (MapKind::From, &[], none)),
            Some((MapKind::From, none))
        );
        assert_eq!(
            merge((MapKind::Present, &[], none), (MapKind::To, &[], none)),
            None
        );
    }
}
