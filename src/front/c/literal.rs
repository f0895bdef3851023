//! The pieces of a string or character literal token: its opening quote
//! (prefix included), contents, escape sequences, closing quote.

use super::build::Builder;
use super::kinds::{self, CHARACTER, ESCAPE_SEQUENCE, STRING_CONTENT};
use super::lexer::Token;

/// Pushes the children of literal `t` whose quote is `quote`.
pub(super) fn pieces(b: &mut Builder, src: &[u8], t: Token, quote: u8) {
    let (start, end) = (t.start as usize, t.end as usize);
    let text = &src[start..end];
    let open = text
        .iter()
        .position(|&c| c == quote)
        .map_or(text.len(), |k| k + 1);
    let open_text = std::str::from_utf8(&text[..open]).unwrap_or("\"");
    b.leaf(
        kinds::anon(open_text).unwrap_or(kinds::ERROR),
        t.start,
        (start + open) as u32,
    );
    let closed = text.len() > open && text[text.len() - 1] == quote && !escaped_end(&text[open..]);
    let body_end = if closed { end - 1 } else { end };
    let mut at = start + open;
    let mut run = at;
    while at < body_end {
        if src[at] == b'\\' {
            if quote == b'"' && run < at {
                b.leaf(STRING_CONTENT, run as u32, at as u32);
            }
            let len = escape_len(&src[at..body_end]);
            b.leaf(ESCAPE_SEQUENCE, at as u32, (at + len) as u32);
            at += len;
            run = at;
            continue;
        }
        let len = char_len(src[at]).min(body_end - at);
        if quote == b'\'' {
            b.leaf(CHARACTER, at as u32, (at + len) as u32);
        }
        at += len;
    }
    if quote == b'"' && run < body_end {
        b.leaf(STRING_CONTENT, run as u32, body_end as u32);
    }
    if closed {
        let q = if quote == b'"' { "\"" } else { "'" };
        b.leaf(
            kinds::anon(q).unwrap_or(kinds::ERROR),
            (end - 1) as u32,
            end as u32,
        );
    } else {
        let q = if quote == b'"' { "\"" } else { "'" };
        b.missing(kinds::anon(q).unwrap_or(kinds::ERROR), end as u32);
    }
}

/// Whether the body's last quote is escaped (the literal is unclosed).
fn escaped_end(body: &[u8]) -> bool {
    let mut k = 0;
    let mut last_escape_end = 0;
    while k < body.len() {
        if body[k] == b'\\' {
            k += escape_len(&body[k..]);
            last_escape_end = k;
        } else {
            k += 1;
        }
    }
    last_escape_end == body.len() && body.len() >= 2
}

/// The length of the escape sequence at the start of `s` (`s[0]` is `\`).
fn escape_len(s: &[u8]) -> usize {
    let hex = |from: usize, max: usize| {
        s[from..]
            .iter()
            .take(max)
            .take_while(|c| c.is_ascii_hexdigit())
            .count()
    };
    match s.get(1) {
        None => 1,
        Some(b'x') => 2 + hex(2, 4),
        Some(b'u') => 2 + hex(2, 4),
        Some(b'U') => 2 + hex(2, 8),
        Some(c) if c.is_ascii_digit() => {
            let digits = s[1..]
                .iter()
                .take(3)
                .take_while(|c| c.is_ascii_digit())
                .count();
            1 + digits
        }
        Some(&c) => 1 + char_len(c).min(s.len() - 1),
    }
}

fn char_len(c: u8) -> usize {
    match c {
        0xf0.. => 4,
        0xe0.. => 3,
        0xc0.. => 2,
        _ => 1,
    }
}
