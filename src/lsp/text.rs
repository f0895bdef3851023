//! LSP positions (line, UTF-16 column) to byte offsets and back.

use lsp_types::{Position, Range};

/// The line starts of a text, for position conversions.
#[derive(Clone, Debug, Default)]
pub struct Lines {
    starts: Vec<usize>,
}

impl Lines {
    pub fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Lines { starts }
    }

    /// The byte offset of `p` in `text`; past the end of a line is its end,
    /// past the last line is the end of the text.
    pub fn offset(&self, text: &str, p: Position) -> usize {
        let Some(&start) = self.starts.get(p.line as usize) else {
            return text.len();
        };
        let end = self
            .starts
            .get(p.line as usize + 1)
            .map_or(text.len(), |e| e - 1);
        let line = text.get(start..end.max(start)).unwrap_or("");
        let mut units = 0u32;
        for (i, c) in line.char_indices() {
            if units >= p.character {
                return start + i;
            }
            units += c.len_utf16() as u32;
        }
        start + line.len()
    }

    /// The position of byte `offset` in `text`.
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let offset = offset.min(text.len());
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let character = text
            .get(start..offset)
            .map_or(0, |s| s.encode_utf16().count()) as u32;
        Position::new(line as u32, character)
    }

    pub fn range(&self, text: &str, start: usize, end: usize) -> Range {
        Range::new(self.position(text, start), self.position(text, end))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_columns_round_trip() {
        let text = "a\n\u{e9}x\u{1f600}y\n";
        let l = Lines::new(text);
        let y = text.find('y').unwrap();
        assert_eq!(l.position(text, y), Position::new(1, 4));
        assert_eq!(l.offset(text, Position::new(1, 4)), y);
        assert_eq!(l.offset(text, Position::new(1, 99)), text.len() - 1);
        assert_eq!(l.offset(text, Position::new(9, 0)), text.len());
        assert_eq!(l.position(text, 2), Position::new(1, 0));
    }
}
