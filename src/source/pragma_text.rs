//! A pragma as one line of text, for the comments of generated code.

/// The pragma on one line, continuations joined, spaces collapsed; `*/` and `/*`
/// defused so it can sit inside a C comment.
pub fn pragma_one_line(text: &str) -> String {
    let joined = text.replace("\\\r\n", " ").replace("\\\n", " ");
    let words: Vec<&str> = joined.split_whitespace().collect();
    // Quoted inside `/* ... */` comments: neither may end or open one.
    words.join(" ").replace("*/", "* /").replace("/*", "/ *")
}
