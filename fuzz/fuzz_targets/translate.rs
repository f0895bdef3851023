//! Fuzzes the whole translation: no text may make `translate` panic, for
//! every output kind, and the output is the same on a second run.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pragma2cuda::source::SourceFile;
use pragma2cuda::{translate, Emit, Options};

fuzz_target!(|data: &[u8]| {
    let Some((&which, body)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(body);
    let file = SourceFile::new("fuzz.c", text.as_ref());
    let emit = match which % 4 {
        0 => Emit::Cuda,
        1 => Emit::Plan,
        2 => Emit::Directives,
        _ => Emit::DirectivesJson,
    };
    let a = translate(&file, &Options { emit, ..Default::default() });
    for d in &a.diagnostics {
        let s = d.primary_span();
        assert!(s.start <= s.end && s.end <= file.text.len(), "{d:?}");
    }
    let b = translate(&file, &Options { emit, ..Default::default() });
    assert_eq!(a.output, b.output);
});
