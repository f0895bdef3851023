//! Fuzzes the pragma scanner and parser: no input may panic, and for every
//! pragma that parses without diagnostics, printing is a fixpoint
//! (print(parse(print(d))) == print(d)). The macro scanner and the `#if`
//! group scanner run on the same text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pragma2cuda::directives::{parse_pragma, print};
use pragma2cuda::source::mask::{find_pragma_macros, find_pragmas, mask};
use pragma2cuda::source::{cond, macros, Span};

fuzz_target!(|data: &[u8]| {
    let (head, body) = data.split_at(data.len().min(4));
    let text = String::from_utf8_lossy(body);
    let text = text.as_ref();

    // Arbitrary spans, including ones past the end and inside UTF-8 characters.
    let a = head.first().copied().unwrap_or(0) as usize;
    let b = head.get(1).copied().unwrap_or(255) as usize;
    let _ = parse_pragma(text, Span::new(a, b));
    let _ = parse_pragma(text, Span::new(0, text.len()));

    let pragmas = find_pragmas(text);
    let masked = mask(text, &pragmas);
    assert_eq!(masked.len(), text.len());
    let _ = find_pragma_macros(text);
    // The one-pass scanner finds the same pragmas, and its spans are in the text.
    let found = macros::find_all(text);
    assert_eq!(found.pragmas, pragmas);
    for m in &found.from_macros {
        assert!(m.use_span.end <= text.len() && m.text.end <= text.len());
        let _ = parse_pragma(text, m.text);
    }
    for g in cond::groups(text) {
        assert!(g.span().end <= text.len());
        let _ = cond::arm_at(std::slice::from_ref(&g), text.len() / 2);
    }
    for p in &pragmas {
        let (d, diags) = parse_pragma(text, p.span);
        if let (Some(d), true) = (d, diags.is_empty()) {
            let printed = print(&d);
            let (again, diags2) = parse_pragma(&printed, Span::new(0, printed.len()));
            assert!(diags2.is_empty(), "reparse of {printed:?} reported {diags2:?}");
            let again = again.expect("printed directive parses");
            assert_eq!(print(&again), printed);
            assert_eq!(again.name, d.name, "{printed:?}");
            assert_eq!(again.clauses.len(), d.clauses.len());
            for (a, b) in again.clauses.iter().zip(&d.clauses) {
                assert_eq!(a.name, b.name, "{printed:?}");
            }
        }
    }
});
