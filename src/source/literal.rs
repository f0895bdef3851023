//! Text from the input (its path, names) written into the output's string
//! literals and comments, escaped so that it stays inside them: a path may
//! hold `"`, `\`, `*/` or a newline.

/// `s` as the contents of a C string literal: `\` and `"` escaped, control
/// characters as escapes (octal, three digits, so a following digit is not
/// read into them).
pub fn c_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\{:03o}", c as u32));
            }
            c => out.push(c),
        }
    }
    out
}

/// `s` for the inside of a `/* ... */` comment on one line: no `*/` to end
/// it early, no `/*` (a warning), no line break, no control character.
pub fn in_comment(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut prev = '\0';
    for c in s.chars() {
        match c {
            '/' if prev == '*' => out.push_str("\\/"),
            '*' if prev == '/' => out.push_str("\\*"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push('?'),
            c => out.push(c),
        }
        prev = c;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_inside_literals_and_comments() {
        assert_eq!(c_string("a\"b\\c\nd\u{1}7"), "a\\\"b\\\\c\\nd\\0017");
        let c = in_comment("x*/y/*z\nw");
        assert!(
            !c.contains("*/") && !c.contains("/*") && !c.contains('\n'),
            "{c}"
        );
        assert_eq!(c, "x*\\/y/\\*z\\nw");
    }
}
